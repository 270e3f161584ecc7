// `npm run bench:code [-- --count N --rounds R --warm-up W]`: the API's own code per
// request, in µs, for each target: N requests through the API's `fetch` inside one Worker
// request (./code-worker.ts), against N answers of the same bytes, in alternating rounds.
// What it reports and how to read it is in bench/README.md.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { utcDay } from "../src/lib/dates";
import { startBenchServer } from "./bench-server";
import type { CodeRun } from "./code-worker";
import { apiTargets, prepareApi, wholeNumber } from "./setup";
import { GOALS, median, quantile, type Target } from "./targets";

const RUN_DIR = path.resolve(".wrangler/bench/code");
const { values } = parseArgs({
  options: {
    count: { type: "string", default: "2000" },
    rounds: { type: "string", default: "15" },
    "warm-up": { type: "string", default: "3" },
  },
});
const [count, rounds, warmUpRounds] = [
  wholeNumber(values.count, "count", 1),
  wholeNumber(values.rounds, "rounds", 1),
  wholeNumber(values["warm-up"], "warm-up", 0),
];
const log = (message: string) => console.log(`[bench:code] ${message}`);
/** As many pets as `npm run bench` seeds by default. */
const PETS = 1000;

const main = async () => {
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  const { persistTo, envFile, auth } = await prepareApi(RUN_DIR, PETS, log);
  const server = await startBenchServer({
    name: "bench:code",
    command: "wrangler dev",
    args: ["bench/code-worker.ts", "--name", "petstore-bench-code", "--env-file", envFile],
    persistTo,
    probe: { path: "/", isOurs: (response) => response.headers.has("X-Bench-Code") },
  });
  try {
    const targets: Target[] = Object.values(apiTargets("", auth, PETS, server.pid));
    // µs per request of one loop of `count`, timed from here: the loop is the whole request.
    const run = async (loop: Omit<CodeRun, "count">) => {
      const started = performance.now();
      const response = await fetch(server.origin, { method: "POST", body: JSON.stringify({ ...loop, count }) });
      const elapsed = performance.now() - started;
      if (response.status !== 204) throw new Error(`${loop.request.path}: ${await response.text()}`);
      return (elapsed * 1000) / count;
    };
    const differences = new Map(targets.map((target) => [target, [] as number[]]));
    const sides = new Map(targets.map((target) => [target, { api: [] as number[], floor: [] as number[] }]));
    for (let round = -warmUpRounds; round < rounds; round++) {
      if (round >= 0 && round % 5 === 0) log(`round ${round + 1}/${rounds}`);
      for (const target of targets) {
        const { url, method = "GET", headers = {}, body } = target;
        const request = { path: url, method, headers, body };
        const query = target.goal !== undefined && GOALS[target.goal].reference === "limitAndQuery";
        // Each round the other side first, so that neither always runs on a warmer isolate.
        const order = round % 2 ? (["floor", "api"] as const) : (["api", "floor"] as const);
        const timed = { api: 0, floor: 0 };
        for (const side of order) timed[side] = await run({ side, query, request });
        if (round < 0) continue;
        differences.get(target)?.push(timed.api - timed.floor);
        sides.get(target)?.api.push(timed.api);
        sides.get(target)?.floor.push(timed.floor);
      }
    }
    const µs = (value: number) => value.toFixed(1);
    const rows = targets.map((target) => {
      const difference = differences.get(target) ?? [];
      const side = sides.get(target) ?? { api: [], floor: [] };
      const spread = `${µs(quantile(difference, 0.25))} to ${µs(quantile(difference, 0.75))}`;
      return `| ${target.name} | ${µs(median(difference))} (${spread}) | ${µs(median(side.api))} | ${µs(median(side.floor))} |`;
    });
    const report = [
      `\`npm run bench:code\`, ${utcDay(Date.now())}: ${count} requests a loop, ${rounds} rounds after ${warmUpRounds} of warm-up; µs per request, medians of the rounds.`,
      "",
      "| Target | The API's code (p25 to p75) | The API's loop | The floor's loop |",
      "| --- | ---: | ---: | ---: |",
      ...rows,
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(path.join(RUN_DIR, "..", "code.md"), `${report}\n`);
  } finally {
    await server.stop();
  }
};

main().catch((error: Error) => {
  console.error(`[bench:code] failed: ${error.message}`);
  process.exit(1);
});
