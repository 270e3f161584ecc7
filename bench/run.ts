// `npm run bench [-- --rounds R --warm-up W --requests N --count N]`: the instructions that
// the Worker's workerd executes per request, counted by valgrind's callgrind
// (./callgrind-workerd.sh), for each target of the API and for its floor (./floor.ts), in
// pairs that alternate. A count does not move with the machine's speed as CPU time does.
// What it measures and how to read it: bench/README.md.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { utcDay } from "../src/lib/dates";
import { LIST_LIMIT } from "../src/schemas";
import { countedProcess } from "./callgrind";
import { type CountedServer, load } from "./load";
import { type Collections, type Counted, report } from "./report";
import { type Pair, type Side, startServers } from "./servers";
import { startupCounts } from "./startup";
import { apiTargets, type Target } from "./targets";
import { BENCH_V8_FLAGS } from "./v8-flags";

const RUN_DIR = path.resolve(".wrangler/bench/run");
const CALLGRIND_DIR = path.join(RUN_DIR, "callgrind");
// Few connections: callgrind runs a process's threads one at a time.
const CONNECTIONS = 2;
const wholeNumber = (text: string | undefined, name: string, min: number) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(`--${name} must be a whole number of at least ${min}.`);
  return value;
};
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "8" },
    "warm-up": { type: "string", default: "2" },
    requests: { type: "string", default: "200" },
    count: { type: "string", default: "1000" },
    // Some of the targets by name (targets.ts), comma-separated: to iterate on one; all by default.
    targets: { type: "string" },
    "startup-runs": { type: "string", default: "3" },
  },
});
const [rounds, warmUpRounds, requests, count, startupRuns] = [
  wholeNumber(values.rounds, "rounds", 1),
  wholeNumber(values["warm-up"], "warm-up", 0),
  wholeNumber(values.requests, "requests", 1),
  // A full first page and one pet more, so that the first page has a next one.
  wholeNumber(values.count, "count", LIST_LIMIT.default + 1),
  wholeNumber(values["startup-runs"], "startup-runs", 0),
];
const targetNames = Object.keys(apiTargets("", {}, count));
const only = values.targets?.split(",");
const unknown = only?.filter((name) => !targetNames.includes(name));
if (unknown?.length)
  throw new Error(`--targets: no target ${unknown.join(", ")}; the targets are ${targetNames.join(", ")}`);
const args = process.argv.slice(2);
const log = (message: string) => console.log(`[bench] ${message}`);

const main = async () => {
  const started = performance.now();
  try {
    execFileSync("valgrind", ["--version"], { stdio: "pipe" });
  } catch {
    throw new Error("it needs valgrind and its callgrind_control (on Debian: apt-get install valgrind)");
  }
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(CALLGRIND_DIR, { recursive: true });
  const env = {
    MINIFLARE_WORKERD_V8_FLAGS: BENCH_V8_FLAGS,
    MINIFLARE_WORKERD_PATH: path.resolve("bench/callgrind-workerd.sh"),
    BENCH_WORKERD: (createRequire(import.meta.url)("workerd") as { default: string }).default,
    BENCH_CALLGRIND_DIR: CALLGRIND_DIR,
  };
  const startup =
    startupRuns > 0
      ? await startupCounts({ runDir: RUN_DIR, callgrindDir: CALLGRIND_DIR, env, args: [], runs: startupRuns, log })
      : undefined;
  const { pairs: all, servers: running, stop } = await startServers({ runDir: RUN_DIR, count, log, env });
  const pairs = only ? all.filter((pair) => only.includes(pair.key)) : all;
  try {
    const counting = (server: { pid: number; inspectorPort: CountedServer["inspectorPort"] }): CountedServer => ({
      pid: countedProcess(CALLGRIND_DIR, server.pid),
      inspectorPort: server.inspectorPort,
    });
    const servers: Record<Side, CountedServer> = {
      api: counting(running.api),
      floor: counting(running.floor),
      peer: counting(running.peer),
    };
    const loadOptions = { callgrindDir: CALLGRIND_DIR, requests, connections: CONNECTIONS };
    const counted = new Map<Pair, Counted[]>(pairs.map((pair) => [pair, []]));
    const collections: Collections = { api: [], floor: [] };
    for (let round = -warmUpRounds; round < rounds; round++) {
      log(round < 0 ? "warm-up, not counted" : `round ${round + 1} of ${rounds}`);
      // The API's load of a target, once a round: its floor and its peer are each set beside the same count.
      const apiLoads = new Map<string, Promise<number>>();
      for (const pair of pairs) {
        // Each side goes first in every other round, so that neither is always loaded on the other's wake.
        const targetFirst = round % 2 === 0;
        const loadOn = async (target: Target, side: Side) => {
          const { perRequest, collection } = await load(target, servers[side], loadOptions);
          if (round >= 0 && side !== "peer") collections[side].push(collection);
          return perRequest;
        };
        const onApi = () => {
          let loaded = apiLoads.get(pair.key);
          if (!loaded) {
            loaded = loadOn(pair.target, "api");
            apiLoads.set(pair.key, loaded);
          }
          return loaded;
        };
        const [target, reference] = [onApi, () => loadOn(pair.reference, pair.referenceSide)];
        const [first, second] = targetFirst ? [await target(), await reference()] : [await reference(), await target()];
        if (round >= 0)
          counted
            .get(pair)
            ?.push(targetFirst ? { target: first, reference: second } : { target: second, reference: first });
      }
    }
    const heading =
      `\`npm run bench${args.length ? ` -- ${args.join(" ")}` : ""}\`, ${utcDay(Date.now())}, ${availableParallelism()} cores:` +
      ` ${count} pets, ${requests} requests a load over ${CONNECTIONS} connections, ${rounds} rounds after ${warmUpRounds}` +
      " of warm-up. Instructions of the Worker's workerd per answered request (callgrind), medians of the rounds;" +
      " over what a target is judged against: the median of its rounds over the median of the reference's, and the" +
      " lowest and highest of the rounds' own shares.";
    const text = report(heading, counted, collections, startup);
    console.log(`\n${text}\n`);
    writeFileSync(path.join(RUN_DIR, "..", "last.md"), `${text}\n`);
    log(`written to .wrangler/bench/last.md; took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await stop();
  }
};

main().catch((error: Error) => {
  console.error(`[bench] failed: ${error.message}`);
  process.exit(1);
});
