// `npm run bench:tiering [-- --targets a,b --rounds R]`: what V8's optimizing compilers do in
// each load of `npm run bench`, load by load: the functions marked for Maglev or Turbofan, and
// those deoptimized, with V8's reason. The API runs as the bench runs it (V8 single-threaded,
// its seeds fixed, a full collection before each load: ./collect.ts), not under callgrind, with
// V8's own traces on (--trace-opt, --trace-deopt). It says which functions a load compiles
// again; `npm run bench` counts what that costs (bench/README.md).
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startBenchServer } from "./bench-server";
import { collectGarbage } from "./collect";
import { prepareApi } from "./servers";
import { apiTargets, type Target } from "./targets";
import { BENCH_V8_FLAGS } from "./v8-flags";

const RUN_DIR = path.resolve(".wrangler/bench/tiering");
const { values } = parseArgs({
  options: { targets: { type: "string" }, rounds: { type: "string", default: "6" } },
});
const rounds = Number(values.rounds);
if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error("--rounds must be a whole number of at least 1.");
const log = (message: string) => console.log(`[bench:tiering] ${message}`);

/** What V8's traces say happened to which functions, a line each, counted. */
const tally = (trace: string) => {
  const events = new Map<string, number>();
  const count = (event: string) => events.set(event, (events.get(event) ?? 0) + 1);
  const functionName = (name: string | undefined) => name || "(anonymous)";
  for (const [, name, tier] of trace.matchAll(/<JSFunction (?:(\S+) )?\(sfi = \w+\)> for optimization to (\w+)/g))
    count(`optimized for ${tier}: ${functionName(name)}`);
  for (const [, name, reason] of trace.matchAll(
    /<SharedFunctionInfo (\S*)>\) \(opt id \d+\) for deoptimization, reason: ([^\]\n]+)/g,
  ))
    count(`deoptimized (${reason}): ${functionName(name)}`);
  for (const [, reason, name] of trace.matchAll(
    /bailout \(kind: [^,]+, reason: ([^)]+)\): begin\. deoptimizing [^<]*<JSFunction (?:(\S+) )?/g,
  ))
    count(`deoptimized (${reason}): ${functionName(name)}`);
  return [...events].map(([event, times]) => (times > 1 ? `${event} (${times}×)` : event));
};

const main = async () => {
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  const { persistTo, envFile, auth } = await prepareApi(RUN_DIR, 1000, log);
  const args = ["--name", "petstore-bench-api", "--env-file", envFile, "--minify=false", "--config", "wrangler.toml"];
  const env = { MINIFLARE_WORKERD_V8_FLAGS: `${BENCH_V8_FLAGS} --trace-opt --trace-deopt` };
  const api = await startBenchServer({ name: "api", command: "wrangler dev", args, persistTo, env });
  // The server's output is kept to its last 64 KiB: each load's part of it is what follows the end seen before.
  let seen = api.output();
  const newOutput = () => {
    const now = api.output();
    const end = seen.slice(-300);
    const at = end ? now.lastIndexOf(end) : -1;
    seen = now;
    return at >= 0 ? now.slice(at + end.length) : now;
  };
  try {
    const all = Object.entries(apiTargets(api.origin, auth, 1000)) as [string, Target][];
    const only = values.targets?.split(",");
    const targets = all.filter(([name]) => !only || only.includes(name));
    for (let round = 1; round <= rounds; round++) {
      for (const [, { url, method = "GET", headers, body, settleMs }] of targets) {
        const carry = async () => {
          const response = await fetch(url, { method, headers, body });
          await response.arrayBuffer();
        };
        await collectGarbage(api.inspectorPort, carry);
        await autocannon({ url, method, headers, body, connections: 2, amount: 200 });
        await new Promise((resolve) => setTimeout(resolve, settleMs));
      }
      // workerd writes its traces in blocks, so a line can arrive a load late: they are summed by round.
      const events = tally(newOutput());
      console.log(
        `\nround ${round} (${targets.length} loads, each after a collection): ${events.length ? "" : "nothing"}`,
      );
      for (const event of events) console.log(`  ${event}`);
    }
  } finally {
    await api.stop();
  }
};

main().catch((error: Error) => {
  console.error(`[bench:tiering] failed: ${error.message}`);
  process.exit(1);
});
