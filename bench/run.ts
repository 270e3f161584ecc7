// `npm run bench [-- --count N --duration S --rounds R --connections C --log-level L]`:
// what it measures and how to read it is in bench/README.md.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startDevServer } from "../scripts/dev-server";
import { PARTS } from "./cpu";
import { cpuPerRequest, measure, overhead } from "./measure";
import { measureScale } from "./scale";
import { apiTargets, MIN_PETS, prepareApi, wholeNumber } from "./setup";
import { measureStartup, STARTUP_RUNS } from "./startup";
import { check, GOALS, median, status, type Target, verdict } from "./targets";

const RUN_DIR = path.resolve(".wrangler/bench/run");

const { values } = parseArgs({
  options: {
    count: { type: "string" },
    // Many short rounds: CPU time pooled over them settles where req/s per round does not.
    duration: { type: "string", default: "1" },
    rounds: { type: "string", default: "30" },
    // Not counted: a target's cost per request fell 12 to 23% from the first ten rounds of 30 to the last ten.
    "warm-up": { type: "string", default: "10" },
    connections: { type: "string", default: "8" },
    "log-level": { type: "string", default: "log" },
  },
});
const [count, duration, rounds, warmUpRounds, connections] = [
  wholeNumber(values.count ?? "1000", "count", MIN_PETS),
  wholeNumber(values.duration, "duration", 1),
  wholeNumber(values.rounds, "rounds", 1),
  wholeNumber(values["warm-up"], "warm-up", 0),
  wholeNumber(values.connections, "connections", 1),
];
const args = process.argv.slice(2);
const command = args.length ? `npm run bench -- ${args.join(" ")}` : "npm run bench";

const log = (message: string) => console.log(`[bench] ${message}`);

const main = async () => {
  const started = performance.now();
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  log(`wrangler check startup (${STARTUP_RUNS} runs)`);
  const figures = measureStartup(RUN_DIR);

  const { persistTo, secret, envFile, auth } = await prepareApi(RUN_DIR, count, log);

  log("starting the API and the reference Worker with wrangler dev");
  const devArgs = ["--env-file", envFile, "--log-level", values["log-level"]];
  const [api, reference] = await Promise.all([
    startDevServer({
      name: "api",
      command: "wrangler dev",
      args: ["--name", "petstore-bench-api", ...devArgs],
      persistTo,
    }),
    startDevServer({
      name: "reference",
      command: "wrangler dev",
      args: ["--config", "bench/reference.toml", ...devArgs],
      // Its own: Miniflare's SQLite files are contended by two servers starting at once.
      persistTo: path.join(RUN_DIR, "reference"),
      probe: { path: "/bare", isOurs: (response) => response.headers.has("X-Bench-Reference") },
    }),
  ]);
  try {
    const { firstPage, partialPage, getPet, create } = apiTargets(api.origin, auth, count, api.pid);
    const targets: Target[] = [firstPage, partialPage, getPet, create];
    const references: Record<"limit" | "limitAndQuery", Target> = {
      limit: {
        name: "reference: bare + one rate-limit call",
        url: `${reference.origin}/one-limit`,
        ok: status(200),
        server: reference.pid,
      },
      limitAndQuery: {
        name: "reference: one rate-limit call + one query",
        url: `${reference.origin}/limit-and-query`,
        ok: status(200),
        server: reference.pid,
      },
    };
    const measured = [...targets, ...Object.values(references)];
    for (const target of measured) await check(target);
    const loadsOf = await measure(measured, { rounds, warmUpRounds, duration, connections, log });

    const percent = (share: number) => `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)}%`;
    const warnings: string[] = [];
    const rows = measured.map((target) => {
      const loads = loadsOf(target);
      const cpu = cpuPerRequest(loads);
      const failures = loads.reduce((sum, load) => sum + load.failures, 0);
      if (failures) warnings.push(`WARNING: ${target.name}: ${failures} errors or non-2xx answers under load.`);
      const split = `${cpu.worker.toFixed(0)} / ${cpu.proxy.toFixed(0)} / ${cpu.wrangler.toFixed(0)}`;
      const rps = median(loads.map((load) => load.rps)).toFixed(0);
      if (!target.goal) return `| ${target.name} | ${split} | ${cpu.total.toFixed(0)} | | ${rps} | | |`;
      const goal = GOALS[target.goal];
      const against = overhead(loads, loadsOf(references[goal.reference]));
      const met = against.pooled <= goal.maxCpuOverhead && against.rps >= goal.minRps;
      const share = `${percent(against.pooled)} (${percent(against.p25)} to ${percent(against.p75)}; median ${percent(against.median)})`;
      const judged = `<= ${percent(goal.maxCpuOverhead)} CPU and >= ${goal.minRps}x req/s of ${references[goal.reference].name.replace("reference: ", "")}: ${verdict(met)}`;
      return `| ${target.name} | ${split} | ${cpu.total.toFixed(0)} | ${share} | ${rps} | ${against.rps.toFixed(2)} | ${judged} |`;
    });
    if (values.count !== undefined) figures.push(await measureScale(partialPage, secret, count, log));

    const report = [
      `\`${command}\`, ${new Date().toISOString().slice(0, 10)}: ${count} pets seeded,` +
        ` wrangler dev --log-level ${values["log-level"]}, ${connections} connections, ${rounds} interleaved rounds` +
        ` of ${duration} s after ${warmUpRounds} of warm-up, ${availableParallelism()} cores. CPU: user and system time of the server's processes` +
        " per answered request, pooled over the rounds; over the reference: pooled (the rounds' own, p25 to p75).",
      "",
      "| Target | CPU µs/req: Worker / proxy / wrangler | CPU µs/req | over reference | req/s (median) | x reference req/s | target |",
      "| --- | --- | --- | --- | --- | --- | --- |",
      ...rows,
      "",
      ...figures.map((line) => `- ${line}`),
      ...warnings,
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(path.join(RUN_DIR, "..", "last.md"), `${report}\n`);
    // Each load on its own, in the order of the rounds: to see whether a target drifts or jumps.
    const loadRows = measured.flatMap((target) =>
      loadsOf(target).map(({ requests, cpu }, round) =>
        [
          round + 1,
          JSON.stringify(target.name),
          requests,
          ...PARTS.map((part) => (cpu[part] / requests).toFixed(0)),
        ].join(","),
      ),
    );
    writeFileSync(
      path.join(RUN_DIR, "..", "loads.csv"),
      `${["round,target,requests", ...PARTS.map((part) => `${part}_us_per_request`)].join(",")}\n${loadRows.join("\n")}\n`,
    );
    log(
      `written to .wrangler/bench/last.md (and each load to loads.csv); took ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await Promise.all([api.stop(), reference.stop()]);
  }
};

main().catch((error: Error) => {
  console.error(`[bench] failed: ${error.message}`);
  process.exit(1);
});
