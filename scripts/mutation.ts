// `npm run test:mutation [-- <group> ...]`: StrykerJS's mutants of the modules that carry the
// documented rules (scripts/lib/mutation-groups.ts), each group run against its own tests
// through Stryker's command runner: its vitest runner misreads vitest 5 (stryker-js#6210, every
// covered mutant reported as survived), and a command per group keeps each run to the tests
// that matter. Prints each survivor with its place, leaves out those judged equivalent, and
// fails below 90% killed. Not part of `npm test`: a group takes minutes.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isEquivalent } from "./lib/equivalent";
import { EQUIVALENTS } from "./lib/mutation-equivalents";
import { MUTATION_GROUPS } from "./lib/mutation-groups";
import { nudgeNumbers } from "./lib/nudge-numbers";
import { NUDGE_GROUPS } from "./lib/number-nudges";

/** The share of mutants that must be killed (equivalents left out), per group and overall. */
export const MUTATION_TARGET = 0.9;
const REPORTS = path.join("reports", "mutation");

type Mutant = {
  mutatorName: string;
  replacement?: string;
  status: string;
  statusReason?: string;
  location: { start: { line: number; column: number } };
};
type Report = { files: Record<string, { source: string; mutants: Mutant[] }> };

const configFor = (name: string) => {
  const group = MUTATION_GROUPS[name];
  if (!group) throw new Error(`No mutation group '${name}': ${Object.keys(MUTATION_GROUPS).join(", ")}.`);
  return {
    testRunner: "command",
    commandRunner: { command: group.command },
    mutate: group.mutate,
    // The command runs every test of the group for each mutant: no per-test coverage to use.
    coverageAnalysis: "off",
    concurrency: 2,
    reporters: ["json", "progress"],
    jsonReporter: { fileName: path.join(REPORTS, `${name}.json`) },
    tempDirName: ".stryker-tmp",
    ignorePatterns: ["test/sdks", ".wrangler", "reports"],
    // Over the unmutated run's own time (which Stryker scales by 1.5): a mutant that makes a
    // test hang is caught by this, rather than by the suite's ten-minute guard. A minute, so
    // that a machine busier than at the unmutated run (a stress run beside it) does not turn
    // a slow run into a kill.
    timeoutMS: 60_000,
    // TypeScript 7 has no JavaScript API for Stryker to read a tsconfig with: it is pointed at
    // none (the sandbox runs the sources through vitest, which needs no rewritten tsconfig).
    tsconfigFile: "no-tsconfig-to-rewrite.json",
    disableTypeChecks: false,
  };
};

/** What vitest prints when its tests never ran: a mutant "killed" so was not tested at all. */
const NOT_RUN = /Startup Error|No projects matched/;

/**
 * Killed (a test failed, or the tests hung), survived, and what survived; a mutant whose
 * command failed before any test ran is not counted killed, and fails the run.
 */
const tally = (report: Report) => {
  let killed = 0;
  let notRun = 0;
  const survivors: string[] = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const lines = source.split("\n");
    for (const mutant of mutants) {
      if (mutant.status === "Killed" && NOT_RUN.test(mutant.statusReason ?? "")) notRun++;
      else if (mutant.status === "Killed" || mutant.status === "Timeout") killed++;
      if (mutant.status !== "Survived" && mutant.status !== "NoCoverage") continue;
      const { line, column } = mutant.location.start;
      const text = lines[line - 1] ?? "";
      if (!isEquivalent(EQUIVALENTS, { file, line: text, column, replacement: mutant.replacement })) {
        survivors.push(
          `${file}:${line}:${column} ${mutant.mutatorName}: ${lines[line - 1]?.trim()}  ->  ${mutant.replacement}`,
        );
      }
    }
  }
  return { killed, notRun, survivors };
};

// `numbers` (or `numbers:<group>`) asks for the nudges of the documented numbers, which no
// Stryker mutator makes (scripts/lib/number-nudges.ts); with no names, every group and every nudge.
const asked = process.argv.slice(2);
const nudgesAsked = asked.filter((name) => name === "numbers" || name.startsWith("numbers:"));
const names = asked.length > 0 ? asked.filter((name) => !nudgesAsked.includes(name)) : Object.keys(MUTATION_GROUPS);
const nudgeGroups =
  asked.length === 0 || nudgesAsked.includes("numbers")
    ? Object.keys(NUDGE_GROUPS)
    : nudgesAsked.map((name) => name.slice("numbers:".length));
mkdirSync(".stryker-tmp", { recursive: true });
let killedAll = 0;
let countedAll = 0;
for (const name of names) {
  const config = path.join(".stryker-tmp", `${name}.config.json`);
  writeFileSync(config, JSON.stringify(configFor(name), null, 2));
  console.log(`\n[mutation] ${name}: ${MUTATION_GROUPS[name]?.mutate.join(", ")}`);
  const run = spawnSync("npx", ["stryker", "run", config], { stdio: ["ignore", "inherit", "inherit"] });
  if (run.status !== 0) throw new Error(`stryker failed on the group ${name}`);
  const report = JSON.parse(readFileSync(path.join(REPORTS, `${name}.json`), "utf8")) as Report;
  const { killed, notRun, survivors } = tally(report);
  if (notRun > 0)
    throw new Error(`${notRun} mutants of ${name} were not tested: their command failed before any test ran.`);
  const counted = killed + survivors.length;
  killedAll += killed;
  countedAll += counted;
  console.log(`[mutation] ${name}: ${killed} of ${counted} killed (${((100 * killed) / counted).toFixed(1)}%)`);
  for (const survivor of survivors) console.log(`  survived ${survivor}`);
}
if (names.length > 0) {
  const score = countedAll === 0 ? 1 : killedAll / countedAll;
  console.log(
    `\n[mutation] ${killedAll} of ${countedAll} killed: ${(100 * score).toFixed(1)}% (target ${100 * MUTATION_TARGET}%)`,
  );
  if (score < MUTATION_TARGET) process.exitCode = 1;
}
if (nudgeGroups.length > 0) {
  // Every nudge must fail a test: a documented number that can move unseen is not pinned.
  const { tried, survivors } = nudgeNumbers(nudgeGroups);
  console.log(`\n[nudge] ${tried - survivors.length} of ${tried} nudges failed their tests`);
  for (const survivor of survivors) console.log(`  survived ${survivor}`);
  if (survivors.length > 0) process.exitCode = 1;
}
