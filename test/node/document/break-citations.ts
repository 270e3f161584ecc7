// `npm run test:citations [-- <words of a test path or claim>]`: makes each change of
// ./citations/ in turn, runs the cited test file with it (each test the
// citation names must fail), and puts the file back.
// A citation whose tests still pass under its change is reported: its test does not show its
// claim. Every change is checked to apply before the first is made, and nothing runs unless
// the files it changes are as committed, so that `git diff` shows anything left behind.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CITATIONS, type Citation, type Edit } from "./citations/index";

const projectOf = (test: string) => test.split("/")[1] as "worker" | "node" | "e2e";
const occurrences = (text: string, find: string) => text.split(find).length - 1;

/** What keeps a citation's change from being made, if anything. */
const problemsOf = ({ breaks }: Citation) =>
  breaks.flatMap(({ file, find }: Edit) => {
    const count = occurrences(readFileSync(file, "utf8"), find);
    return count === 1 ? [] : [`${file}: ${JSON.stringify(find)} occurs ${count} times, not once`];
  });

type Outcome = { citation: Citation; outcomes: { name: string; failed: boolean; why: string }[]; log: string };

const run = (citation: Citation, reportDir: string): Outcome => {
  const originals = new Map(citation.breaks.map(({ file }) => [file, readFileSync(file, "utf8")]));
  const report = path.join(reportDir, "report.json");
  try {
    for (const { file, find, replace } of citation.breaks) {
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace(find, () => replace),
      );
    }
    const { stdout, stderr } = spawnSync(
      "npx",
      [
        "vitest",
        "run",
        "--project",
        projectOf(citation.test),
        citation.test,
        // Under an edit a test may wait for what never comes (a deadline removed, say): that is
        // the claim breaking, so it fails after 2 minutes here, not at the suite's 10-minute guard.
        "--testTimeout=120000",
        "--reporter=json",
        `--outputFile=${report}`,
      ],
      { encoding: "utf8", env: { ...process.env, WRANGLER_LOG: "warn" } },
    );
    const results = (() => {
      try {
        return JSON.parse(readFileSync(report, "utf8")).testResults as {
          assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
        }[];
      } catch {
        return [];
      }
    })();
    const tests = results.flatMap(({ assertionResults }) => assertionResults);
    return {
      citation,
      outcomes: citation.shownBy.map((name) => {
        const named = tests.filter(({ fullName }) => fullName.includes(name) && fullName.length > 0);
        const failed = named.find(({ status }) => status === "failed");
        return {
          name,
          failed: failed !== undefined,
          why: failed?.failureMessages[0]?.split("\n")[0]?.slice(0, 160) ?? (named.length ? "passed" : "did not run"),
        };
      }),
      log: `${stdout}${stderr}`.slice(-2000),
    };
  } finally {
    for (const [file, text] of originals) writeFileSync(file, text);
    rmSync(report, { force: true });
  }
};

const filter = process.argv.slice(2).join(" ");
const chosen = CITATIONS.filter(({ page, test, claim }) => `${page} ${test} ${claim}`.includes(filter));
const problems = chosen.flatMap(problemsOf);
const changed = execFileSync(
  "git",
  ["status", "--porcelain", "--", ...new Set(chosen.flatMap(({ breaks }) => breaks.map(({ file }) => file)))],
  {
    encoding: "utf8",
  },
).trim();
if (problems.length > 0 || changed) {
  console.error(
    [...problems, ...(changed ? [`uncommitted changes in files it would change:\n${changed}`] : [])].join("\n"),
  );
  console.error("Nothing was changed.");
  process.exit(2);
}

// An interrupt stops after the current run, whose change is then put back.
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => (interrupted = true));

const reportDir = mkdtempSync(path.join(tmpdir(), "citations-"));
let holding = 0;
for (const [index, citation] of chosen.entries()) {
  if (interrupted) break;
  const { outcomes, log } = run(citation, reportDir);
  const shown = outcomes.every(({ failed }) => failed);
  if (!shown) holding++;
  console.log(
    `${shown ? "fails, as it should" : "STILL PASSES"}  ${index + 1}/${chosen.length}  ${citation.page} -> ${citation.test}: ${citation.claim}`,
  );
  for (const { name, why } of outcomes) console.log(`  ${name}: ${why}`);
  if (outcomes.some(({ why }) => why === "did not run")) console.log(log);
}
rmSync(reportDir, { recursive: true, force: true });
console.log(
  `${chosen.length - holding} of ${chosen.length} citations fail when their claim is broken; every file is as it was.`,
);
process.exitCode = holding > 0 ? 1 : 0;
