// The verdicts of `npm run bench:segments` (./segments.ts): what three segments may cost over one.

/** The most three segments may cost over one, per request of the first page, getPet and POST. */
export const SEGMENTS_GOAL = 0.02;
/** The least three segments may do of one's creates a second, and of its speed on a partial page of one segment. */
export const SEGMENTS_TIMED_GOAL = 0.9;

const percent = (share: number) => `${share < 0 ? "−" : "+"}${Math.abs(share * 100).toFixed(1)}%`;

/** A row of instructions per request, three segments over one, judged as printed (to a tenth of a point) unless only `reported`. */
export const instructionsRow = (name: string, three: number, one: number, reported?: string) => {
  const share = Math.round((three / one - 1) * 1000) / 1000;
  const judged = reported ?? `≤ ${percent(SEGMENTS_GOAL)}: ${share <= SEGMENTS_GOAL ? "met" : "NOT met"}`;
  return `| ${name} | ${(three / 1e6).toFixed(3)} | ${(one / 1e6).toFixed(3)} | ${percent(share)} | ${judged} |`;
};

/** Three segments' share of one's (creates a second, or a page's speed), judged as printed (to a hundredth). */
export const timedVerdict = (share: number) => {
  const printed = Math.round(share * 100) / 100;
  return `${printed.toFixed(2)} of one segment's (at least ${SEGMENTS_TIMED_GOAL}: ${printed >= SEGMENTS_TIMED_GOAL ? "met" : "NOT met"})`;
};
