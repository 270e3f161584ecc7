// `npm run bench:instructions [-- --requests N --rounds R --warm-up W --count N]`: the
// instructions the Worker's workerd executes per request, counted by valgrind's callgrind
// (./callgrind-workerd.sh), for each target and the same references as `npm run bench`
// (./servers.ts). A count does not move with the machine's speed as CPU time does; what
// it measures and how to read it is in bench/README.md.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { utcDay } from "../src/lib/dates";
import { cpuOf } from "./cpu";
import { ITEM_NAMES, itemsOfDump } from "./instruction-items";
import { SETTLE_MS, sleep } from "./measure";
import { percent } from "./report";
import { startServers } from "./servers";
import { MIN_PETS, wholeNumber } from "./setup";
import { GOALS, median, type Target } from "./targets";

const RUN_DIR = path.resolve(".wrangler/bench/instructions");
const CALLGRIND_DIR = path.join(RUN_DIR, "callgrind");
const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "120" },
    rounds: { type: "string", default: "8" },
    "warm-up": { type: "string", default: "2" },
    count: { type: "string", default: "1000" },
  },
});
const [requests, rounds, warmUpRounds, count] = [
  wholeNumber(values.requests, "requests", 1),
  wholeNumber(values.rounds, "rounds", 1),
  wholeNumber(values["warm-up"], "warm-up", 0),
  wholeNumber(values.count, "count", MIN_PETS),
];
const log = (message: string) => console.log(`[bench:instructions] ${message}`);
// Few connections: callgrind runs the process's threads one at a time.
const CONNECTIONS = 2;

/** The counted workerd among the processes of the server whose group leader is `server`. */
const countedProcess = (server: number) => {
  const counted = new Set(readdirSync(CALLGRIND_DIR).flatMap((name) => name.match(/^workerd\.(\d+)$/)?.[1] ?? []));
  const pid = cpuOf(server)
    .processes.split(" ")
    .find((candidate) => counted.has(candidate));
  if (!pid) throw new Error(`no workerd under callgrind among the processes of ${server}`);
  return pid;
};

const callgrind = (command: "-z" | "-d", pid: string) =>
  execFileSync("callgrind_control", [command, pid], { stdio: "pipe" });

/** The instructions of the newest dump of `pid`'s counts, in all and item by item (the dump is kept, for callgrind_annotate). */
const lastDump = (pid: string) => {
  const dumps = readdirSync(CALLGRIND_DIR)
    .filter((name) => name.startsWith(`callgrind.${pid}.`))
    .toSorted((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop()));
  const text = readFileSync(path.join(CALLGRIND_DIR, dumps.at(-1) ?? ""), "utf8");
  const instructions = Number(text.match(/^(?:summary|totals): (\d+)/m)?.[1]);
  if (!Number.isFinite(instructions)) throw new Error(`no instruction count in ${dumps.at(-1)}`);
  return { instructions, items: itemsOfDump(text) };
};

type Count = { instructions: number; items: Map<string, number>; requests: number; failures: number };

const load = async (target: Target, pid: string): Promise<Count> => {
  const { url, method = "GET", headers, body } = target;
  callgrind("-z", pid);
  const result = await autocannon({ url, method, headers, body, connections: CONNECTIONS, amount: requests });
  // As in npm run bench: the work a load leaves behind is counted with it, not with the next.
  await sleep(SETTLE_MS);
  callgrind("-d", pid);
  return { ...lastDump(pid), requests: result["2xx"], failures: result.errors + result.non2xx };
};

const requestsOf = (counts: Count[]) => counts.reduce((sum, { requests }) => sum + requests, 0);
const perRequest = (counts: Count[]) =>
  counts.reduce((sum, { instructions }) => sum + instructions, 0) / requestsOf(counts);
const itemPerRequest = (counts: Count[], item: string) =>
  counts.reduce((sum, { items }) => sum + (items.get(item) ?? 0), 0) / requestsOf(counts);
const thousands = (instructions: number) =>
  `${instructions < 0 ? "−" : "+"}${Math.abs(instructions / 1000).toFixed(1)}`;
/**
 * Pooled over the rounds; the lowest and highest of the rounds' own, and their median, which
 * one round that counted twice the others (it happens, on either side) does not move.
 */
const over = (target: Count[], reference: Count[]) => {
  const own = target.map((count, round) => perRequest([count]) / perRequest([reference[round] ?? count]) - 1);
  const [low, high] = [Math.min(...own), Math.max(...own)];
  return `${percent(perRequest(target) / perRequest(reference) - 1)} (${percent(low)} to ${percent(high)}; median ${percent(median(own))})`;
};

const main = async () => {
  const started = performance.now();
  try {
    execFileSync("valgrind", ["--version"], { stdio: "pipe" });
  } catch {
    throw new Error("it needs valgrind and its callgrind_control (on Debian: apt-get install valgrind)");
  }
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(CALLGRIND_DIR, { recursive: true });
  const workerd = (createRequire(import.meta.url)("workerd") as { default: string }).default;
  const env = {
    MINIFLARE_WORKERD_PATH: path.resolve("bench/callgrind-workerd.sh"),
    BENCH_WORKERD: workerd,
    BENCH_CALLGRIND_DIR: CALLGRIND_DIR,
  };
  const servers = await startServers({ runDir: RUN_DIR, count, log, devArgs: ["--log-level", "log"], env });
  try {
    const { references, floors, honoFloors, all } = servers;
    const pids = new Map(all.map((target) => [target, countedProcess(target.server)]));
    const counts = new Map<Target, Count[]>(all.map((target) => [target, []]));
    for (let round = -warmUpRounds; round < rounds; round++) {
      log(round < 0 ? "warm-up, not counted" : `round ${round + 1}/${rounds}`);
      const first = (round + warmUpRounds) % all.length;
      for (const target of [...all.slice(first), ...all.slice(0, first)]) {
        const counted = await load(target, pids.get(target) ?? "");
        if (round >= 0) counts.get(target)?.push(counted);
      }
    }
    const of = (target: Target) => counts.get(target) ?? [];
    const rows = all.map((target) => {
      const [floor, honoFloor] = [floors.get(target), honoFloors.get(target)];
      const failures = of(target).reduce((sum, count) => sum + count.failures, 0);
      const cells = [target.name, (perRequest(of(target)) / 1e6).toFixed(3)];
      if (target.goal && floor && honoFloor) {
        const reference = references[GOALS[target.goal].reference];
        cells.push(...[reference, floor, honoFloor].map((under) => over(of(target), of(under))));
      } else cells.push("", "", "");
      return `| ${[...cells, failures ? String(failures) : ""].join(" | ")} |`;
    });
    const apiTargets = Object.values(servers.byName);
    const overFloor = (target: Target, item: string) => {
      const floor = floors.get(target);
      return floor ? thousands(itemPerRequest(of(target), item) - itemPerRequest(of(floor), item)) : "";
    };
    const report = [
      `\`npm run bench:instructions\`, ${utcDay(Date.now())}: ${count} pets seeded, ${requests} requests` +
        ` per load over ${CONNECTIONS} connections, ${rounds} interleaved rounds after ${warmUpRounds} of warm-up.` +
        " Instructions the Worker's workerd executed (callgrind), per answered request, pooled over the rounds;" +
        " over a reference: pooled (the lowest and highest of the rounds' own; their median).",
      "",
      "| Target | Million instructions per request | over its calls | over its calls and answer | over them through Hono | failures |",
      "| --- | --- | --- | --- | --- | --- |",
      ...rows,
      "",
      "Over its floor, item by item (./instruction-items.ts): thousands of instructions per request, pooled over the rounds.",
      "",
      `| Item | ${apiTargets.map((target) => target.name).join(" | ")} |`,
      `| --- |${" ---: |".repeat(apiTargets.length)}`,
      ...ITEM_NAMES.map((item) => `| ${[item, ...apiTargets.map((target) => overFloor(target, item))].join(" | ")} |`),
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(path.join(RUN_DIR, "..", "instructions.md"), `${report}\n`);
    log(`written to .wrangler/bench/instructions.md; took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await servers.stop();
  }
};

main().catch((error: Error) => {
  console.error(`[bench:instructions] failed: ${error.message}`);
  process.exit(1);
});
