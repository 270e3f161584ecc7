import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort } from "../../../scripts/lib/supervise";

// `npm run dev` as a process manager or CI stops it: one signal to the npm process alone,
// or npm killed outright. The script's process, wrangler and its runtimes must all end, and
// the port be free again (package.json runs scripts/dev.ts with `exec`, so that npm's signal
// reaches it; scripts/dev.ts watches for npm to go). Each run is in a
// process group of its own, so that whatever a failure leaves is killed after the test.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const scratch = mkdtempSync(path.join(tmpdir(), "petstore-dev-signals-"));
const groups: number[] = [];
afterAll(() => {
  for (const group of groups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
  rmSync(scratch, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether the server at `origin` answers, its body read: a try that gets no whole answer
 * within 5 s is given up and made again, a guard rather than a measure of speed.
 */
const answers = async (origin: string) => {
  try {
    const response = await fetch(`${origin}/v1/openapi.json`, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
};

/** Whether any process of the group `leader` made is still alive. */
const groupAlive = (leader: number) => {
  try {
    process.kill(-leader, 0);
    return true;
  } catch {
    return false;
  }
};

/** `npm run dev` started, answering on its port, stopped by `signal` sent to npm alone: what was left of its group. */
const stopWith = async (signal: NodeJS.Signals) => {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = ["--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort)];
  const npm = spawn("npm", ["run", "dev", "--", ...args, "--persist-to", path.join(scratch, signal)], {
    cwd: ROOT,
    detached: true,
    stdio: "ignore",
    env: { ...process.env, WRANGLER_LOG: "warn" },
  });
  const leader = npm.pid as number;
  groups.push(leader);
  const origin = `http://127.0.0.1:${port}`;
  // Until it answers: the hang guard of the project bounds a server that never does.
  while (!(await answers(origin))) await pause(250);
  const npmExited = new Promise((resolve) => npm.on("exit", resolve));
  process.kill(leader, signal);
  await npmExited;
  while (groupAlive(leader)) await pause(100);
  const refused = !(await answers(origin));
  return { signal, refused };
};

it("ends its whole process tree, freeing its port, on SIGTERM, SIGINT or SIGHUP sent to npm, and when npm is killed", async () => {
  const results = await Promise.all((["SIGTERM", "SIGINT", "SIGHUP", "SIGKILL"] as const).map(stopWith));
  expect(results).toEqual([
    { signal: "SIGTERM", refused: true },
    { signal: "SIGINT", refused: true },
    { signal: "SIGHUP", refused: true },
    { signal: "SIGKILL", refused: true },
  ]);
});
