// `npm run bench:profile [-- --targets a,b --seconds S --detail ITEM]`: where the Worker's
// JavaScript time goes, item by item, for each target: a V8 CPU profile of the API's isolate
// under load (through wrangler dev's inspector, unminified), its samples summed by what they
// ran: each file of src/ on its own, each package as one, the runtime's built-ins and bindings
// by name. Sampled time, slowed by the profiler: read the shares, not the microseconds. It
// points at what to cut; `npm run bench` counts whether it was worth it (bench/README.md).
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startBenchServer } from "./bench-server";
import { inspect, type Profile, samplesByItem } from "./inspector";
import { prepareApi } from "./servers";
import { apiTargets, check, type Target } from "./targets";

const RUN_DIR = path.resolve(".wrangler/bench/profile");
const { values } = parseArgs({
  options: {
    targets: { type: "string" },
    seconds: { type: "string", default: "5" },
    // An item (a file of src/, a package) to break down by function.
    detail: { type: "string" },
  },
});
const seconds = Number(values.seconds);
if (!Number.isSafeInteger(seconds) || seconds < 1) throw new Error("--seconds must be a whole number of at least 1.");
const log = (message: string) => console.log(`[bench:profile] ${message}`);

const main = async () => {
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  const { persistTo, envFile, auth } = await prepareApi(RUN_DIR, 1000, log);
  const args = ["--name", "petstore-bench-api", "--env-file", envFile, "--minify=false", "--config", "wrangler.toml"];
  const api = await startBenchServer({ name: "api", command: "wrangler dev", args, persistTo });
  const session = await inspect(api.inspectorPort);
  try {
    const bundle = await session.bundle();
    await session.send("Profiler.enable");
    // Finer than the default (1 ms): a request takes about that long.
    await session.send("Profiler.setSamplingInterval", { interval: 50 });
    const all = Object.entries(apiTargets(api.origin, auth, 1000)) as [string, Target][];
    const only = values.targets?.split(",");
    for (const [, target] of all.filter(([name]) => !only || only.includes(name))) {
      await check(target);
      const load = { ...target, connections: 4 };
      await autocannon({ ...load, duration: 2 });
      await session.send("Profiler.start");
      const result = await autocannon({ ...load, duration: seconds });
      const { profile } = await session.send<{ profile: Profile }>("Profiler.stop");
      const items = samplesByItem(profile, bundle, values.detail);
      const perRequest = [...items].map(([item, us]) => [item, us / result["2xx"]] as const);
      const total = perRequest.reduce((sum, [, us]) => sum + us, 0);
      console.log(
        `\n${target.name}: ${result["2xx"]} requests, ${total.toFixed(0)} µs of JavaScript a request, as sampled`,
      );
      for (const [item, us] of perRequest.toSorted((a, b) => b[1] - a[1]).slice(0, 30)) {
        console.log(`${((us / total) * 100).toFixed(1).padStart(6)}%  ${item}`);
      }
    }
  } finally {
    session.close();
    await api.stop();
  }
};

main().catch((error: Error) => {
  console.error(`[bench:profile] failed: ${error.message}`);
  process.exit(1);
});
