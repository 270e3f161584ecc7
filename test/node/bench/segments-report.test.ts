import { describe, expect, it } from "vitest";
import { instructionsRow, timedVerdict } from "../../../bench/segments-report";

// The verdicts of `npm run bench:segments`, each budget pinned from both sides.

describe("the segments bench's verdicts", () => {
  it("meets +2% of instructions over one segment, and not a tenth of a point above", () => {
    expect(instructionsRow("A target", 1_020_000, 1_000_000)).toBe(
      "| A target | 1.020 | 1.000 | +2.0% | ≤ +2.0%: met |",
    );
    expect(instructionsRow("A target", 1_021_000, 1_000_000)).toMatch(/\+2\.1% \| ≤ \+2\.0%: NOT met \|$/);
    expect(instructionsRow("Crossing", 1_500_000, 1_000_000, "reported")).toBe(
      "| Crossing | 1.500 | 1.000 | +50.0% | reported |",
    );
  });

  it("meets 0.9 of one segment's creates a second or speed, and not a hundredth below", () => {
    expect(timedVerdict(0.9)).toBe("0.90 of one segment's (at least 0.9: met)");
    expect(timedVerdict(0.89)).toBe("0.89 of one segment's (at least 0.9: NOT met)");
  });
});
