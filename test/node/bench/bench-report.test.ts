import { describe, expect, it } from "vitest";
import { type Counted, report } from "../../../bench/report";
import type { Pair } from "../../../bench/servers";
import type { GOALS, Target } from "../../../bench/targets";

// The bench's verdicts (bench/report.ts): each goal that bench/README.md states, pinned here
// from both sides as a literal, and the startup line's figures.

const target = (name: string, goal: keyof typeof GOALS): Target => ({
  name,
  url: "",
  ok: () => true,
  goal,
  settleMs: 0,
});
const NO_COLLECTIONS = { api: [], floor: [] };
const rowOf = (goal: keyof typeof GOALS, rounds: Counted[]) => {
  const pair: Pair = {
    key: "firstPage",
    target: target("A target", goal),
    reference: target("R", goal),
    referenceSide: "floor",
  };
  return (
    report("heading", new Map([[pair, rounds]]), NO_COLLECTIONS, undefined)
      .split("\n")
      .at(-1) ?? ""
  );
};
/** One round per share, each `over` the reference of 1,000,000. */
const counted = (...overs: number[]) => overs.map((over) => ({ target: 1_000_000 * (1 + over), reference: 1_000_000 }));

describe("the bench's report", () => {
  it.each([
    ["memory", 0.06],
    ["d1", 0.08],
    ["tool", 0.08],
  ] as const)("meets the %s goal at +%s over the reference, and not a tenth of a point above", (goal, limit) => {
    expect(rowOf(goal, counted(limit))).toMatch(/: met \|$/);
    expect(rowOf(goal, counted(limit + 0.001))).toMatch(/: NOT met \|$/);
  });

  it("judges the median of the target's rounds over the median of its reference's, and prints the rounds' own shares' lowest and highest", () => {
    // The rounds' own shares are +10.0%, +8.3% and −3.8%: their median (+8.3%) would fail the goal.
    const rounds = [
      [1_100_000, 1_000_000],
      [1_040_000, 960_000],
      [1_010_000, 1_050_000],
    ].map(([target = 0, reference = 0]) => ({ target, reference }));
    expect(rowOf("memory", rounds)).toContain("| A target | 1.040 | 1.000 | +4.0% | −3.8% to +10.0% | ≤ +6.0%: met |");
  });

  it("sets the peer's rows apart, below the floors', with no goal", () => {
    const pair = (side: Pair["referenceSide"]): Pair => ({
      key: "firstPage",
      target: target("A target", "memory"),
      reference: target("R", "memory"),
      referenceSide: side,
    });
    const text = report(
      "heading",
      new Map([
        [pair("floor"), counted(0.02)],
        [pair("peer"), counted(-0.4)],
      ]),
      NO_COLLECTIONS,
      undefined,
    );
    const lines = text.split("\n");
    const [floorRow, peerRow] = [
      lines.indexOf("| A target | 1.020 | 1.000 | +2.0% | +2.0% to +2.0% | ≤ +6.0%: met |"),
      lines.indexOf("| A target | 0.600 | 1.000 | −40.0% | −40.0% to −40.0% |"),
    ];
    expect(floorRow).toBeGreaterThan(0);
    expect(peerRow).toBeGreaterThan(floorRow);
    expect(lines.slice(floorRow + 1, peerRow).join("\n")).toContain("The peer's");
    expect(report("heading", new Map([[pair("floor"), counted(0.02)]]), NO_COLLECTIONS, undefined)).not.toContain(
      "peer",
    );
  });

  it("gives the median of each side's collections before its loads, and says none when none were made", () => {
    const text = report(
      "heading",
      new Map(),
      { api: [50_000_000, 44_000_000, 52_000_000], floor: [21_000_000] },
      undefined,
    );
    expect(text).toContain(
      "A full collection before each counted load, with its sweep, counted apart (million instructions, with the heap walk that finishes the sweep and the request that carried them, the median): the API 50.0 (3 loads), its floor 21.0 (1 load).",
    );
    expect(report("heading", new Map(), NO_COLLECTIONS, undefined)).not.toContain("collection");
  });

  it("gives each side's startup, its runs, and what the API takes over the floor", () => {
    const text = report("heading", new Map(), NO_COLLECTIONS, {
      api: [1_500_000_000, 1_520_000_000, 1_510_000_000],
      floor: [1_400_000_000, 1_430_000_000, 1_420_000_000],
    });
    expect(text).toContain(
      "the API 1510.000 (1500.000, 1520.000, 1510.000), its floor 1420.000 (1400.000, 1430.000, 1420.000); the API's own 90.000, goal at most 110: met.",
    );
  });

  it.each([
    [110_000_000, "met"],
    [110_000_001, "NOT met"],
  ])("judges the API's own startup against at most 110 million: %i is %s", (own, verdict) => {
    const text = report("heading", new Map(), NO_COLLECTIONS, { api: [1_400_000_000 + own], floor: [1_400_000_000] });
    expect(text).toMatch(new RegExp(`goal at most 110: ${verdict}\\.$`));
  });
});
