// Short loads that alternate the targets and the references: each for `duration` s in turn,
// `rounds` times, each round starting one target later. Around each load, the CPU time of
// the serving processes (./cpu.ts), so that a request's CPU cost is pooled over many rounds:
// far steadier on a shared machine than requests per second, which stay as a second figure.
import autocannon from "autocannon";
import { type CpuUs, cpuOf, difference, PARTS } from "./cpu";
import { median, quantile, type Target } from "./targets";

export type Load = { requests: number; rps: number; failures: number; cpu: CpuUs };
type Options = {
  rounds: number;
  /** Rounds run first and not counted: an isolate's cost per request keeps falling for minutes (bench/README.md). */
  warmUpRounds: number;
  duration: number;
  connections: number;
  log: (message: string) => void;
};

// Work a load leaves behind (log lines wrangler relays, waitUntil writes, garbage) is charged
// to it, not to the next: with 300 ms, two runs of the same code (41464cc, before the
// warm-up rounds) told the reads apart by up to 6.7 points; with 1 s, by at most 0.9. That
// was one pair of runs: later ones show a run's own noise is several points (bench/README.md).
export const SETTLE_MS = 1000;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const load = async (target: Target, seconds: number, connections: number): Promise<Load> => {
  const { url, method = "GET", headers, body, server } = target;
  const before = cpuOf(server);
  const result = await autocannon({ url, method, headers, body, connections, duration: seconds });
  await sleep(SETTLE_MS);
  const cpu = difference(cpuOf(server), before);
  const { requests, errors, non2xx } = result;
  return {
    requests: result["2xx"],
    rps: requests.average,
    failures: errors + non2xx,
    cpu,
  };
};

export const measure = async (targets: Target[], { rounds, warmUpRounds, duration, connections, log }: Options) => {
  const loads = new Map<Target, Load[]>(targets.map((target) => [target, []]));
  for (let round = -warmUpRounds; round < rounds; round++) {
    if (round === -warmUpRounds) log(`${warmUpRounds} rounds of warm-up, not counted`);
    if (round >= 0 && round % 5 === 0) log(`round ${round + 1}/${rounds}`);
    const first = (round + warmUpRounds) % targets.length;
    for (const target of [...targets.slice(first), ...targets.slice(0, first)]) {
      const measured = await load(target, round < 0 ? 1 : duration, connections);
      if (round >= 0) loads.get(target)?.push(measured);
    }
  }
  return (target: Target) => loads.get(target) ?? [];
};

const sum = (numbers: number[]) => numbers.reduce((total, number) => total + number, 0);

/** CPU µs per answered request, by part and in all, pooled over the loads: their CPU time over their requests. */
export const cpuPerRequest = (loads: Load[]) => {
  const requests = sum(loads.map((load) => load.requests));
  const byPart = Object.fromEntries(
    PARTS.map((part) => [part, sum(loads.map((load) => load.cpu[part])) / requests]),
  ) as CpuUs;
  return { ...byPart, total: sum(PARTS.map((part) => byPart[part])) };
};

/** The target's CPU per request over the reference's, as a share: pooled, and the middle half of the rounds' own. */
export const overhead = (target: Load[], reference: Load[]) => {
  const pooled = cpuPerRequest(target).total / cpuPerRequest(reference).total - 1;
  const rounds = target.map((load, round) => {
    const other = reference[round];
    return other ? cpuPerRequest([load]).total / cpuPerRequest([other]).total - 1 : 0;
  });
  const rps = median(target.map((load, round) => load.rps / (reference[round]?.rps ?? Number.NaN)));
  return { pooled, p25: quantile(rounds, 0.25), median: median(rounds), p75: quantile(rounds, 0.75), rps };
};
