// Runs Prism (@stoplight/prism-cli), the OpenAPI mock server and validating proxy, for
// the tests: a free port of 127.0.0.1, a process group of its own, stopped when this
// process ends (scripts/lib/supervise.ts), and quiet: what it prints is kept
// for the message of a failure.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { freePort, supervise } from "./supervise";

const ROOT = path.resolve(import.meta.dirname, "../..");
// The CLI's own entry, run by this Node: its bin shim would pick whichever `node` is on the PATH.
const CLI = createRequire(import.meta.url).resolve("@stoplight/prism-cli");
// A guard against a Prism that never listens, far above its start on a loaded machine (seconds).
const READY_TIMEOUT_MS = 600_000;
// Prism logs each problem it finds in an answer as "Violation: response<where> <what>".
const RESPONSE_VIOLATION = /Violation: response\b.*/;

export type Prism = {
  origin: string;
  /** What Prism printed (the last 64 KiB). */
  output: () => string;
  /** Every problem that Prism found so far in a response, as it logged it. */
  responseViolations: () => string[];
  stop: () => Promise<void>;
};

/** `prism mock <document>` or `prism proxy <document> <upstream>`, with `args` after them; resolves once it listens. */
export const startPrism = async (args: string[]): Promise<Prism> => {
  const port = await freePort();
  // Node's default limit on a request's head (16 KiB) is below what the API is tested with.
  const node = ["--max-http-header-size=65536"];
  const child = spawn(process.execPath, [...node, CLI, ...args, "--host", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const violations: string[] = [];
  let partialLine = "";
  const { output, hasExited, halt, forget } = supervise(child, {
    onOutput: (text) => {
      const lines = (partialLine + text).split("\n");
      partialLine = lines.pop() ?? "";
      for (const line of lines) {
        const violation = RESPONSE_VIOLATION.exec(line)?.[0];
        if (violation) violations.push(violation);
      }
    },
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!output().includes("Prism is listening on")) {
    if (hasExited()) {
      forget();
      throw new Error(`prism ${args[0]} exited early:\n${output()}`);
    }
    if (Date.now() > deadline) {
      await halt();
      throw new Error(`prism ${args[0]} did not listen within ${READY_TIMEOUT_MS / 1000} s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin: `http://127.0.0.1:${port}`, output, responseViolations: () => [...violations], stop: halt };
};
