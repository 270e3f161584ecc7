import { describe, expect, it } from "vitest";
import type { DumpContents } from "../../../scripts/lib/check-dump";
import { segmentFile, segmentSetProblems } from "../../../scripts/lib/segment-set";

// A backup's files, one per segment of pets: how the backup names them, and what the restore
// refuses of a set that is not one deployment's segments as they were.

const SPAN = 2 ** 40;
const dump = (
  position: number | undefined,
  closedAt: number | null,
  first: number | null,
  last = first,
): DumpContents => ({
  rows: { pets: first === null ? 0 : 1 },
  ...(position !== undefined && { segment: { position, closedAt } }),
  ids: { first, last },
});
const set = (...contents: DumpContents[]) => contents.map((one, index) => ({ file: `f${index}.sql`, contents: one }));

describe("a backup's files", () => {
  it("name the first segment's as given, a later open one's beside it, and a closed one's once, by its database", () => {
    expect(segmentFile("/b/petstore-2027-01-01.sql", 0, { closed: true, name: "petstore" })).toBe(
      "/b/petstore-2027-01-01.sql",
    );
    expect(segmentFile("/b/petstore-2027-01-01.sql", 2, { closed: false, name: "petstore-pets-2" })).toBe(
      "/b/petstore-2027-01-01.pets-2.sql",
    );
    expect(segmentFile("/b/petstore-2027-01-01.sql", 1, { closed: true, name: "petstore-pets-1" })).toBe(
      "/b/petstore-pets-1.closed.sql",
    );
  });
});

describe("a restore's set of files", () => {
  it("is taken when it is each segment once, in range, the ones before the last two closed, in order", () => {
    expect(segmentSetProblems(set(dump(undefined, null, 1, 30)), 1)).toEqual([]);
    const three = set(dump(0, 10, 1, 30), dump(1, 20, SPAN, SPAN + 5), dump(2, null, 2 * SPAN));
    expect(segmentSetProblems(three, 3)).toEqual([]);
    expect(segmentSetProblems([...three].reverse(), 3)).toEqual([]);
    // The one before the last may still be open (a backup taken while a segment was being opened).
    expect(segmentSetProblems(set(dump(0, 10, 1), dump(1, null, SPAN), dump(2, null, null)), 3)).toEqual([]);
  });

  it("is refused when it is not one deployment's segments, naming why", () => {
    expect(segmentSetProblems(set(dump(0, 10, 1)), 2)).toEqual(["the target lists 2 segments, and 1 file was given"]);
    expect(segmentSetProblems(set(dump(0, 10, 1), dump(0, 10, 1)), 2)).toEqual(["f1.sql is segment 0 again"]);
    expect(segmentSetProblems(set(dump(0, 10, 1), dump(2, null, 2 * SPAN)), 2)).toEqual([
      "f1.sql is segment 2, past the 2 given",
    ]);
    expect(segmentSetProblems(set(dump(0, 10, 1), dump(1, null, SPAN - 1, SPAN)), 2)).toEqual([
      `f1.sql holds ids ${SPAN - 1} to ${SPAN}, outside segment 1's range`,
    ]);
    expect(segmentSetProblems(set(dump(0, null, 1), dump(1, null, SPAN), dump(2, null, 2 * SPAN)), 3)).toEqual([
      "f0.sql is segment 0, and not closed",
    ]);
    expect(segmentSetProblems(set(dump(0, 20, 1), dump(1, 10, SPAN), dump(2, null, 2 * SPAN)), 3)).toEqual([
      "the segments were not closed in order: the files come from different deployments",
    ]);
  });
});
