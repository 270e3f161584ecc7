// The bench's report (./run.ts): each target against what it is judged against, then startup.

import type { Pair } from "./servers";
import { GOALS, median, STARTUP_GOAL_M } from "./targets";

/** One round's count per request, of the target and of what it is judged against. */
export type Counted = { target: number; reference: number };
/** The instructions of the full collection before each counted load, on each side (./collect.ts). */
export type Collections = { api: number[]; floor: number[] };

const percent = (share: number) => `${share < 0 ? "−" : "+"}${Math.abs(share * 100).toFixed(1)}%`;
const millions = (instructions: number) => (instructions / 1e6).toFixed(3);

/**
 * A row: the medians of the rounds on each side, the one's over the other, the spread of the
 * rounds' own shares, the verdict. A round's share sets one load's count against another's,
 * so it carries the noise of both; each side's median passes over its own.
 */
const row = (pair: Pair, rounds: Counted[]) => {
  const [target, reference] = [
    median(rounds.map((round) => round.target)),
    median(rounds.map((round) => round.reference)),
  ];
  const shares = rounds.map((round) => round.target / round.reference - 1);
  // Judged as printed, to a tenth of a point.
  const share = Math.round((target / reference - 1) * 1000) / 1000;
  const goal = GOALS[pair.target.goal];
  const spread = `${percent(Math.min(...shares))} to ${percent(Math.max(...shares))}`;
  const over = [pair.target.name, millions(target), millions(reference), percent(share), spread];
  return pair.referenceSide === "floor" ? [...over, `≤ ${percent(goal)}: ${share <= goal ? "met" : "NOT met"}`] : over;
};

export const report = (
  heading: string,
  counted: Map<Pair, Counted[]>,
  collections: Collections,
  startup: { api: number[]; floor: number[] } | undefined,
) => {
  const rows = (side: Pair["referenceSide"]) =>
    [...counted]
      .filter(([pair]) => pair.referenceSide === side)
      .map(([pair, rounds]) => `| ${row(pair, rounds).join(" | ")} |`);
  const lines = [
    heading,
    "",
    "| Target | Million instructions | Its floor's | Over it | Rounds' spread | Goal |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows("floor"),
  ];
  const besidePeer = rows("peer");
  if (besidePeer.length > 0) {
    lines.push(
      "",
      "Beside the peer, the same operations as written by default on this stack (bench/peer.ts): below 0, the API does less.",
      "",
      "| Target | Million instructions | The peer's | Over it | Rounds' spread |",
      "| --- | --- | --- | --- | --- |",
      ...besidePeer,
    );
  }
  if (collections.api.length > 0) {
    const side = (counts: number[]) =>
      `${(median(counts) / 1e6).toFixed(1)} (${counts.length} ${counts.length === 1 ? "load" : "loads"})`;
    lines.push(
      "",
      "A full collection before each counted load, with its sweep, counted apart (million instructions, with the heap" +
        ` walk that finishes the sweep and the request that carried them, the median): the API ${side(collections.api)}, its floor ${side(collections.floor)}.`,
    );
  }
  if (startup) {
    const [api, floor] = [median(startup.api), median(startup.floor)];
    const runs = (counts: number[]) => counts.map(millions).join(", ");
    lines.push(
      "",
      "Startup, from the workerd's start to the Worker's first answer (million instructions, the median of" +
        ` ${startup.api.length} starts): the API ${millions(api)} (${runs(startup.api)}), its floor` +
        ` ${millions(floor)} (${runs(startup.floor)}); the API's own ${millions(api - floor)},` +
        ` goal at most ${STARTUP_GOAL_M}: ${api - floor <= STARTUP_GOAL_M * 1e6 ? "met" : "NOT met"}.`,
    );
  }
  return lines.join("\n");
};
