import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type Equivalent, isEquivalent } from "../../../scripts/lib/equivalent";
import { EQUIVALENTS } from "../../../scripts/lib/mutation-equivalents";

// The survivors `npm run test:mutation` takes as equivalent are found by the code they name,
// not by where it stands: an entry whose line has changed no longer matches anything, and
// is to be judged again.

const linesOf = (file: string) =>
  new Set(
    readFileSync(file, "utf8")
      .split("\n")
      .map((line) => line.trim()),
  );

describe("the mutation equivalents", () => {
  it("each name a line of code that their file holds", () => {
    const files = new Map<string, Set<string>>();
    const missing = EQUIVALENTS.filter(({ file, code }) => {
      if (!files.has(file)) files.set(file, linesOf(file));
      return !files.get(file)?.has(code);
    }).map(({ file, code }) => `${file}: ${code}`);
    expect(EQUIVALENTS.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  const known: Equivalent[] = [
    { file: "src/a.ts", code: "if (ready) go();", replacement: "true", why: "a reason" },
    { file: "src/a.ts", code: "const x = y ?? z;", column: 10, replacement: "y", why: "another" },
  ];

  it("match a survivor by its line's code, wherever the line stands and however deep it is indented", () => {
    expect(isEquivalent(known, { file: "src/a.ts", line: "if (ready) go();", column: 4, replacement: "true" })).toBe(
      true,
    );
    expect(
      isEquivalent(known, { file: "src/a.ts", line: "      if (ready) go();", column: 10, replacement: "true" }),
    ).toBe(true);
    expect(isEquivalent(known, { file: "src/a.ts", line: "  const x = y ?? z;", column: 12, replacement: "y" })).toBe(
      true,
    );
  });

  it("do not match another line, file, replacement or column", () => {
    const survivor = { file: "src/a.ts", line: "if (ready) go();", column: 4, replacement: "true" };
    expect(isEquivalent(known, { ...survivor, line: "if (ready) stop();" })).toBe(false);
    expect(isEquivalent(known, { ...survivor, file: "src/b.ts" })).toBe(false);
    expect(isEquivalent(known, { ...survivor, replacement: "false" })).toBe(false);
    expect(isEquivalent(known, { file: "src/a.ts", line: "  const x = y ?? z;", column: 11, replacement: "y" })).toBe(
      false,
    );
  });
});
