// Runs Workers under `wrangler dev` in the background for scripts/bench.ts: each on
// free ports chosen at run time (others may be running wrangler dev on 8787 and
// elsewhere), each in its own process group so that wrangler and its workerd stop
// together, and all of them stopped when this process exits, fails or is interrupted.
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { spawnWrangler, wranglerEnv } from "./wrangler";

export type DevWorker = { name: string; origin: string; stop: () => Promise<void> };

const running = new Set<ChildProcess>();

const killGroup = (child: ChildProcess) => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM"); // the group: wrangler and the workerd it started
  } catch {
    // Already gone.
  }
};

// "exit" handlers run synchronously, which is all process.kill needs.
process.on("exit", () => {
  for (const child of running) killGroup(child);
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the Workers.`);
    process.exit(130);
  });
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });

const READY_TIMEOUT_MS = 90_000;

/**
 * Starts `wrangler dev <args>` on 127.0.0.1 and resolves once it answers HTTP.
 * `secrets` reach the Worker through a process environment of its own.
 */
export const startDevWorker = async (
  name: string,
  args: string[],
  secrets: Record<string, string> = {},
): Promise<DevWorker> => {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const child = spawnWrangler(
    [
      "dev",
      ...args,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--show-interactive-dev-session=false",
      // Per-request log lines would cost CPU in every target alike and drown the output.
      "--log-level",
      "warn",
    ],
    { env: { ...wranglerEnv, ...secrets }, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  running.add(child);
  // Kept for the error message if the Worker never comes up; the pipes must be drained anyway.
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  exited.then(() => running.delete(child));

  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`wrangler dev for ${name} exited early:\n${output}`);
    }
    if (Date.now() > deadline) throw new Error(`wrangler dev for ${name} did not answer on ${origin}:\n${output}`);
    try {
      await (await fetch(origin, { signal: AbortSignal.timeout(5000) })).arrayBuffer();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return {
    name,
    origin,
    stop: async () => {
      killGroup(child);
      await exited;
    },
  };
};
