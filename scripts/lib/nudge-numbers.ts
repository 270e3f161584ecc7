// The nudges of the documented numbers (./number-nudges.ts), each run against its group's
// tests in a sandbox: a copy of the repository's files beside the one being worked on, with
// its node_modules linked, so that a nudge never touches the working tree, even when the run
// is stopped halfway. Run by `npm run test:mutation` (scripts/mutation.ts).
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import type { Nudge } from "./nudge-forms";
import { NUDGE_GROUPS } from "./number-nudges";

const SANDBOX = path.join(".stryker-tmp", "nudges");
/** How long a group's tests may run under a nudge before it counts as having made them hang. */
const HANG_MS = 5 * 60_000;

/** What vitest prints when its tests never ran: a nudge "killed" so was not tested at all. */
const NOT_RUN = /Startup Error|No projects matched|No test files found/;

const makeSandbox = () => {
  rmSync(SANDBOX, { recursive: true, force: true });
  mkdirSync(SANDBOX, { recursive: true });
  // The files git keeps or would keep: the working tree as it stands, not the last commit.
  const files = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    encoding: "utf8",
  })
    .stdout.split("\0")
    .filter(Boolean);
  // Local settings (.dev.vars) are not tracked, and the tests read them as wrangler dev does.
  for (const file of [...files, ".dev.vars"].filter((each) => existsSync(each))) {
    cpSync(file, path.join(SANDBOX, file), { recursive: false });
  }
  symlinkSync(path.resolve("node_modules"), path.join(SANDBOX, "node_modules"));
};

/** The vitest projects a list of test paths falls in: test/<project>/... */
const projectsOf = (tests: string[]) => [...new Set(tests.map((test) => test.split("/")[1] as string))];

/**
 * Ends what a stopped run left behind (its workers, workerd): every process working in the
 * sandbox, found through /proc where the system has one.
 */
const stopLeftovers = () => {
  if (!existsSync("/proc")) return;
  const sandbox = path.resolve(SANDBOX);
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(sandbox)) process.kill(Number(pid), "SIGKILL");
    } catch {
      // Gone already, or not ours to read.
    }
  }
};

/** Runs the tests in the sandbox: whether they passed, and whether any ran. */
const runTests = (tests: string[]) => {
  const projects = projectsOf(tests).flatMap((project) => ["--project", project]);
  const run = spawnSync("npx", ["vitest", "run", ...projects, ...tests, "--silent"], {
    cwd: SANDBOX,
    encoding: "utf8",
    // A nudge that makes a test hang fails it: it is stopped here rather than at the tests' own guard.
    timeout: HANG_MS,
    killSignal: "SIGKILL",
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG: "warn" },
  });
  const output = `${run.stdout}${run.stderr}`;
  if (run.signal === "SIGKILL") stopLeftovers();
  return { passed: run.status === 0, hung: run.signal === "SIGKILL", ran: !NOT_RUN.test(output), output };
};

/** Writes `nudged` in place of `nudge.from` in the sandbox's copy of its file; returns the undo. */
const apply = (nudge: Nudge, nudged: string) => {
  const file = path.join(SANDBOX, nudge.file);
  const source = readFileSync(file, "utf8");
  const at = source.indexOf(nudge.from);
  if (at === -1 || source.indexOf(nudge.from, at + 1) !== -1) {
    throw new Error(`${nudge.file} must hold '${nudge.from}' exactly once to be nudged.`);
  }
  writeFileSync(file, source.replace(nudge.from, nudged));
  return () => writeFileSync(file, source);
};

/** Nudges every number of the named groups (all by default) both ways; the nudges no test failed. */
export const nudgeNumbers = (names: string[]) => {
  makeSandbox();
  let tried = 0;
  const survivors: string[] = [];
  for (const name of names) {
    const group = NUDGE_GROUPS[name];
    if (!group) throw new Error(`No nudge group '${name}': ${Object.keys(NUDGE_GROUPS).join(", ")}.`);
    const baseline = runTests(group.tests);
    if (!baseline.passed) throw new Error(`The tests of the nudge group ${name} fail unnudged:\n${baseline.output}`);
    for (const nudge of group.nudges) {
      for (const nudged of [nudge.up, nudge.down]) {
        const undo = apply(nudge, nudged);
        const result = runTests(group.tests);
        undo();
        tried++;
        if (!result.ran) throw new Error(`The tests of ${name} did not run for '${nudged}':\n${result.output}`);
        const verdict = result.passed ? "SURVIVED" : result.hung ? "made its tests hang" : "failed its tests";
        console.log(`[nudge] ${name}: ${nudge.file} '${nudge.from}' -> '${nudged}' ${verdict}`);
        if (result.passed) survivors.push(`${nudge.file}: '${nudge.from}' -> '${nudged}'`);
      }
    }
  }
  rmSync(SANDBOX, { recursive: true, force: true });
  return { tried, survivors };
};
