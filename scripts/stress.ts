// `npm run test:stress [-- --hogs N] [-- vitest arguments]`: the suite (or the projects and
// files named, as vitest takes them) beside N processes that keep a core busy each (default
// 6: on 2 cores, with the suite's own, a load average of 8 and more), so that a test that
// reads the clock twice, or counts within a limiter window, meets the machine a loaded CI
// runner is. It fails when any test fails, says the load average before and after, and stops
// the busy processes whatever happens. Run it until it passes three times in a row.
import { type ChildProcess, spawn } from "node:child_process";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  strict: false,
  options: { hogs: { type: "string", default: "6" } },
});
const hogCount = Number(values.hogs);
if (!Number.isSafeInteger(hogCount) || hogCount < 1 || hogCount > 64) {
  console.error("--hogs must be a whole number from 1 to 64.");
  process.exit(1);
}
const vitestArgs = positionals.map(String);

const load = () =>
  loadavg()
    .map((average) => average.toFixed(2))
    .join(", ");

/** A process that keeps one core busy until it is stopped. */
const hog = () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });

const hogs: ChildProcess[] = Array.from({ length: hogCount }, hog);
const stopHogs = () => {
  for (const busy of hogs) busy.kill("SIGKILL");
};
process.on("exit", stopHogs);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopHogs();
    process.exit(1);
  });
}

console.log(`[test:stress] ${hogCount} busy processes beside the suite; load average ${load()}`);
const suite = spawn("npx", ["vitest", "run", ...vitestArgs], {
  stdio: "inherit",
  env: { ...process.env, WRANGLER_LOG: "warn", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
});
suite.on("exit", (code, signal) => {
  console.log(`[test:stress] the suite ${code === 0 ? "passed" : "failed"}; load average ${load()}`);
  stopHogs();
  process.exit(code ?? (signal ? 1 : 0));
});
