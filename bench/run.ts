// `npm run bench [-- --count N --duration S --rounds R --warm-up W --connections C --log-level L]`:
// what it measures and how to read it is in bench/README.md.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startDevServer } from "../scripts/dev-server";
import { checkReplay, recordAnswers } from "./answers";
import { measure } from "./measure";
import { HEADER, loadsCsv, reportRows } from "./report";
import { measureScale } from "./scale";
import { apiTargets, MIN_PETS, prepareApi, wholeNumber } from "./setup";
import { measureStartup, STARTUP_RUNS } from "./startup";
import { check, GOALS, status, type Target } from "./targets";

const RUN_DIR = path.resolve(".wrangler/bench/run");

const { values } = parseArgs({
  options: {
    count: { type: "string" },
    // Many short rounds: CPU time pooled over them settles where req/s per round does not.
    duration: { type: "string", default: "1" },
    rounds: { type: "string", default: "30" },
    // Not counted (two minutes): a target's cost per request fell 12 to 23% from the first ten rounds of 30 to the last ten.
    "warm-up": { type: "string", default: "6" },
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
/** The reference Worker's route for each set of binding calls a target is judged against (./reference.ts). */
const CALLS = { limit: "one-limit", limitAndQuery: "limit-and-query" } as const;

const main = async () => {
  const started = performance.now();
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  log(`wrangler check startup (${STARTUP_RUNS} runs)`);
  const figures = measureStartup(RUN_DIR);

  const { persistTo, secret, envFile, auth } = await prepareApi(RUN_DIR, count, log);

  log("starting the API with wrangler dev, then the reference Worker with the API's answers");
  const devArgs = ["--env-file", envFile, "--log-level", values["log-level"]];
  const api = await startDevServer({
    name: "api",
    command: "wrangler dev",
    args: ["--name", "petstore-bench-api", ...devArgs],
    persistTo,
  });
  const stops = [api.stop];
  try {
    const byName = apiTargets(api.origin, auth, count, api.pid);
    for (const target of Object.values(byName)) await check(target);
    const answers = await recordAnswers(byName, api.origin);
    const reference = await startDevServer({
      name: "reference",
      command: "wrangler dev",
      args: ["--config", "bench/reference.toml", ...devArgs, "--var", `ANSWERS:${JSON.stringify(answers)}`],
      // Its own: the API's D1 is not the one its SELECT 1 reads.
      persistTo: path.join(RUN_DIR, "reference"),
      probe: { path: "/bare", isOurs: (response) => response.headers.has("X-Bench-Reference") },
    });
    stops.push(reference.stop);
    const onReference = (calls: string, name: string): Target => ({
      name,
      url: `${reference.origin}/${calls}`,
      ok: status(200),
      server: reference.pid,
    });
    const references = {
      limit: onReference(CALLS.limit, "reference: bare + one rate-limit call"),
      limitAndQuery: onReference(CALLS.limitAndQuery, "reference: one rate-limit call + one query"),
    };
    for (const target of Object.values(references)) await check(target);
    // The target's own request (method, headers, body), answered with the API's answer to it.
    const floors = new Map<Target, Target>();
    for (const [name, target] of Object.entries(byName)) {
      const floor: Target = {
        ...target,
        name: `reference: its calls and ${target.name}'s answer`,
        url: `${reference.origin}/${CALLS[GOALS[target.goal].reference]}/${name}`,
        server: reference.pid,
        goal: undefined,
      };
      await checkReplay(floor, answers[name as keyof typeof byName], reference.origin);
      floors.set(target, floor);
    }

    const targets = Object.values(byName);
    const measured = [...targets, ...Object.values(references), ...floors.values()];
    const loadsOf = await measure(measured, { rounds, warmUpRounds, duration, connections, log });
    const { rows, warnings } = reportRows({ measured, loadsOf, references, floors });
    if (values.count !== undefined) figures.push(await measureScale(byName.partialPage, secret, count, log));

    const report = [
      `\`${command}\`, ${new Date().toISOString().slice(0, 10)}: ${count} pets seeded,` +
        ` wrangler dev --log-level ${values["log-level"]}, ${connections} connections, ${rounds} interleaved rounds` +
        ` of ${duration} s after ${warmUpRounds} of warm-up, ${availableParallelism()} cores. CPU: user and system time of the server's processes` +
        " per answered request, pooled over the rounds; over a reference: pooled (the rounds' own, p25 to p75).",
      "",
      ...HEADER,
      ...rows,
      "",
      ...figures.map((line) => `- ${line}`),
      ...warnings,
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(path.join(RUN_DIR, "..", "last.md"), `${report}\n`);
    writeFileSync(path.join(RUN_DIR, "..", "loads.csv"), loadsCsv({ measured, loadsOf }));
    log(
      `written to .wrangler/bench/last.md (and each load to loads.csv); took ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await Promise.all(stops.map((stop) => stop()));
  }
};

main().catch((error: Error) => {
  console.error(`[bench] failed: ${error.message}`);
  process.exit(1);
});
