// `npm run bench [-- --rounds R --warm-up W --requests N --count N]`: the instructions that
// the Worker's workerd executes per request, counted by valgrind's callgrind
// (./callgrind-workerd.sh), for each target of the API and for its floor (./floor.ts), in
// pairs that alternate. A count does not move with the machine's speed as CPU time does.
// What it measures and how to read it: bench/README.md.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { utcDay } from "../src/lib/dates";
import { LIST_LIMIT } from "../src/schemas";
import { type Pair, startServers } from "./servers";
import { GOALS, median, type Target } from "./targets";

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
  },
});
const [rounds, warmUpRounds, requests, count] = [
  wholeNumber(values.rounds, "rounds", 1),
  wholeNumber(values["warm-up"], "warm-up", 0),
  wholeNumber(values.requests, "requests", 1),
  // A full first page and one pet more, so that the first page has a next one.
  wholeNumber(values.count, "count", LIST_LIMIT.default + 1),
];
const args = process.argv.slice(2);
const log = (message: string) => console.log(`[bench] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The workerd under callgrind among the descendants of `leader`, a server's process group leader. */
const countedProcess = (leader: number) => {
  const counted = new Set(readdirSync(CALLGRIND_DIR).flatMap((name) => name.match(/^workerd\.(\d+)$/)?.[1] ?? []));
  const parentOf = (pid: string) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1];
  const descends = (pid: string): boolean => {
    const parent = parentOf(pid);
    return parent === String(leader) || (parent !== undefined && parent !== "0" && descends(parent));
  };
  const pid = [...counted].find((candidate) => descends(candidate));
  if (!pid) throw new Error(`no workerd under callgrind among the processes of ${leader}`);
  return pid;
};

/** Instructions per answered request of one load of `target` on the workerd `pid`. */
const load = async ({ name, url, method = "GET", headers, body, settleMs }: Target, pid: string) => {
  execFileSync("callgrind_control", ["-z", pid], { stdio: "pipe" });
  const result = await autocannon({ url, method, headers, body, connections: CONNECTIONS, amount: requests });
  await sleep(settleMs);
  execFileSync("callgrind_control", ["-d", pid], { stdio: "pipe" });
  const failures = result.errors + result.non2xx;
  if (failures > 0) throw new Error(`${name}: ${failures} of ${requests} requests failed`);
  const dumps = readdirSync(CALLGRIND_DIR).filter((file) => file.startsWith(`callgrind.${pid}.`));
  const newest = dumps.toSorted((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop())).at(-1) ?? "";
  const instructions = Number(
    readFileSync(path.join(CALLGRIND_DIR, newest), "utf8").match(/^(?:summary|totals): (\d+)/m)?.[1],
  );
  if (!Number.isFinite(instructions)) throw new Error(`no instruction count in ${newest}`);
  return instructions / result["2xx"];
};

const percent = (share: number) => `${share < 0 ? "−" : "+"}${Math.abs(share * 100).toFixed(1)}%`;

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
    MINIFLARE_WORKERD_PATH: path.resolve("bench/callgrind-workerd.sh"),
    BENCH_WORKERD: (createRequire(import.meta.url)("workerd") as { default: string }).default,
    BENCH_CALLGRIND_DIR: CALLGRIND_DIR,
  };
  const { pairs, servers, stop } = await startServers({ runDir: RUN_DIR, count, log, env });
  try {
    const pids = { api: countedProcess(servers.api), floor: countedProcess(servers.floor) };
    const counted = new Map<Pair, { api: number; floor: number }[]>(pairs.map((pair) => [pair, []]));
    for (let round = -warmUpRounds; round < rounds; round++) {
      log(round < 0 ? "warm-up, not counted" : `round ${round + 1} of ${rounds}`);
      for (const pair of pairs) {
        // Each side goes first in every other round, so that neither is always loaded on the other's wake.
        const apiFirst = round % 2 === 0;
        const first = await load(apiFirst ? pair.target : pair.floor, apiFirst ? pids.api : pids.floor);
        const second = await load(apiFirst ? pair.floor : pair.target, apiFirst ? pids.floor : pids.api);
        if (round >= 0)
          counted.get(pair)?.push(apiFirst ? { api: first, floor: second } : { api: second, floor: first });
      }
    }
    const rows = pairs.map((pair) => {
      const of = counted.get(pair) ?? [];
      const shares = of.map(({ api, floor }) => api / floor - 1);
      const share = median(shares);
      const goal = GOALS[pair.target.goal];
      const millions = (side: "api" | "floor") => (median(of.map((round) => round[side])) / 1e6).toFixed(3);
      const spread = `${percent(Math.min(...shares))} to ${percent(Math.max(...shares))}`;
      const verdict = share <= goal ? "met" : "NOT met";
      return `| ${pair.target.name} | ${millions("api")} | ${millions("floor")} | ${percent(share)} | ${spread} | ≤ ${percent(goal)}: ${verdict} |`;
    });
    const report = [
      `\`npm run bench${args.length ? ` -- ${args.join(" ")}` : ""}\`, ${utcDay(Date.now())}, ${availableParallelism()} cores:` +
        ` ${count} pets, ${requests} requests a load over ${CONNECTIONS} connections, ${rounds} rounds after ${warmUpRounds}` +
        " of warm-up. Instructions of the Worker's workerd per answered request (callgrind), medians of the rounds;" +
        " over the floor: the median of the rounds' own shares, and their lowest and highest.",
      "",
      "| Target | Million instructions | Its floor's | Over the floor | Rounds' spread | Goal |",
      "| --- | --- | --- | --- | --- | --- |",
      ...rows,
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(path.join(RUN_DIR, "..", "last.md"), `${report}\n`);
    log(`written to .wrangler/bench/last.md; took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await stop();
  }
};

main().catch((error: Error) => {
  console.error(`[bench] failed: ${error.message}`);
  process.exit(1);
});
