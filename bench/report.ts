// What `npm run bench` prints of its loads: a table of CPU per request by target, each
// target over the reference that makes its binding calls (the goal) and over the one that
// also writes its answer (the API's code alone), and each load on its own as CSV.
import { PARTS } from "./cpu";
import { cpuPerRequest, type Load, overhead } from "./measure";
import { GOALS, median, type Target, verdict } from "./targets";

type Measured = {
  measured: Target[];
  loadsOf: (target: Target) => Load[];
  references: Record<(typeof GOALS)[keyof typeof GOALS]["reference"], Target>;
  /** For each target, the reference that makes its calls and writes back its answer. */
  floors: Map<Target, Target>;
  /** The same through the smallest Hono app: what the framework the stack fixes costs. */
  honoFloors: Map<Target, Target>;
};

export const percent = (share: number) => `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)}%`;

export const HEADER = [
  "| Target | CPU µs/req: Worker / proxy / wrangler | CPU µs/req | over its calls | over its calls and answer | over them through Hono | req/s (median) | x its calls' req/s | target |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
];

/** The table's rows, and a warning for each target that had failures under load. */
export const reportRows = ({ measured, loadsOf, references, floors, honoFloors }: Measured) => {
  const warnings: string[] = [];
  const rows = measured.map((target) => {
    const loads = loadsOf(target);
    const cpu = cpuPerRequest(loads);
    const failures = loads.reduce((sum, load) => sum + load.failures, 0);
    if (failures) warnings.push(`WARNING: ${target.name}: ${failures} errors or non-2xx answers under load.`);
    const split = `${cpu.worker.toFixed(0)} / ${cpu.proxy.toFixed(0)} / ${cpu.wrangler.toFixed(0)}`;
    const rps = median(loads.map((load) => load.rps)).toFixed(0);
    const [floor, honoFloor] = [floors.get(target), honoFloors.get(target)];
    if (!target.goal || !floor || !honoFloor)
      return `| ${target.name} | ${split} | ${cpu.total.toFixed(0)} | | | | ${rps} | | |`;
    const goal = GOALS[target.goal];
    const calls = overhead(loads, loadsOf(references[goal.reference]));
    const answer = overhead(loads, loadsOf(floor));
    const framework = overhead(loads, loadsOf(honoFloor));
    const met = calls.pooled <= goal.maxCpuOverhead && calls.rps >= goal.minRps;
    const share = ({ pooled, p25, p75, median: middle }: typeof calls) =>
      `${percent(pooled)} (${percent(p25)} to ${percent(p75)}; median ${percent(middle)})`;
    const judged = `<= ${percent(goal.maxCpuOverhead)} CPU and >= ${goal.minRps}x req/s of ${references[goal.reference].name.replace("reference: ", "")}: ${verdict(met)}`;
    return `| ${target.name} | ${split} | ${cpu.total.toFixed(0)} | ${share(calls)} | ${share(answer)} | ${share(framework)} | ${rps} | ${calls.rps.toFixed(2)} | ${judged} |`;
  });
  return { rows, warnings };
};

/** Each load on its own, in the order of the rounds: to see whether a target drifts or jumps. */
export const loadsCsv = ({ measured, loadsOf }: Pick<Measured, "measured" | "loadsOf">) => {
  const rows = measured.flatMap((target) =>
    loadsOf(target).map(({ requests, cpu }, round) =>
      [
        round + 1,
        JSON.stringify(target.name),
        requests,
        ...PARTS.map((part) => (cpu[part] / requests).toFixed(0)),
      ].join(","),
    ),
  );
  return `${["round,target,requests", ...PARTS.map((part) => `${part}_us_per_request`)].join(",")}\n${rows.join("\n")}\n`;
};
