// The Worker's bundle and startup CPU time, as `wrangler check startup` reports them.
import path from "node:path";
import { BUNDLE_BUDGET_KIB } from "../scripts/lib/bundle-budget";
import { wrangler } from "../scripts/lib/wrangler";
import { median, verdict } from "./targets";

export const STARTUP_RUNS = 5;

/** The bundle and the startup CPU time (non-idle samples of a CPU profile, about 1 ms apart). */
export const measureStartup = (runDir: string) => {
  const runs = Array.from({ length: STARTUP_RUNS }, (_, run) => {
    const outfile = path.join(runDir, `startup-${run}.cpuprofile`);
    const output = wrangler(["check", "startup", "--env", "production", "--outfile", outfile]);
    const bundle = /Bundle: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
    const active = /Active: ([\d.]+) ms/.exec(output);
    if (!bundle || !active) throw new Error(`Unexpected output of wrangler check startup:\n${output}`);
    return { raw: Number(bundle[1]), gzip: Number(bundle[2]), cpuMs: Number(active[1]) };
  });
  const { raw, gzip } = runs[0] ?? { raw: 0, gzip: 0 };
  const cpu = runs.map((run) => run.cpuMs);
  return [
    `Bundle (wrangler check startup --env production): ${raw} KiB raw, ${gzip} KiB gzip` +
      ` (budget ${BUNDLE_BUDGET_KIB} KiB gzip, which npm run check:deploy enforces: ${verdict(gzip <= BUNDLE_BUDGET_KIB)})`,
    `Startup CPU (the same, "Active"): median ${median(cpu).toFixed(1)} ms (runs: ${cpu.map((ms) => ms.toFixed(1)).join(", ")})`,
  ];
};
