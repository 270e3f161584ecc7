// `npm run bench [-- --count N --duration S --rounds R --warm-up W --connections C --log-level L]`:
// what it measures and how to read it is in bench/README.md.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { utcDay } from "../src/lib/dates";
import { measure } from "./measure";
import { HEADER, loadsCsv, reportRows } from "./report";
import { measureScale } from "./scale";
import { startServers } from "./servers";
import { MIN_PETS, wholeNumber } from "./setup";
import { measureStartup, STARTUP_RUNS } from "./startup";

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
const main = async () => {
  const started = performance.now();
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  log(`wrangler check startup (${STARTUP_RUNS} runs)`);
  const figures = measureStartup(RUN_DIR);

  const servers = await startServers({ runDir: RUN_DIR, count, log, devArgs: ["--log-level", values["log-level"]] });
  try {
    const { byName, references, floors, honoFloors, secret, all: measured } = servers;
    const loadsOf = await measure(measured, { rounds, warmUpRounds, duration, connections, log });
    const { rows, warnings } = reportRows({ measured, loadsOf, references, floors, honoFloors });
    if (values.count !== undefined) figures.push(await measureScale(byName.partialPage, secret, count, log));

    const report = [
      `\`${command}\`, ${utcDay(Date.now())}: ${count} pets seeded,` +
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
    await servers.stop();
  }
};

main().catch((error: Error) => {
  console.error(`[bench] failed: ${error.message}`);
  process.exit(1);
});
