// Runs Workers under `wrangler dev` in the background for scripts/bench.ts: each on
// free ports chosen at run time (others may be running wrangler dev on 8787 and
// elsewhere), each in its own process group so that wrangler and its workerd stop
// together, and all of them stopped when this process exits, fails or is interrupted.
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { WORKER_HEADER } from "../bench/headers";
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

// Ports handed out by this process, so that two Workers started at once never get the same one.
const handedOut = new Set<number>();

const freePort = async (): Promise<number> => {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.on("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() =>
          typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
        );
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
};

/** Another process took a port between freePort() and wrangler's bind. */
class PortTaken extends Error {}

const READY_TIMEOUT_MS = 90_000;
const ATTEMPTS = 3;

/**
 * Starts `wrangler dev <args>` on 127.0.0.1 and resolves once the Worker answers
 * with `X-Bench-Worker: <name>` (bench/headers.ts), so that another server on the
 * port is not taken for it; on such a clash it tries other ports. `secrets` reach
 * the Worker through a process environment of its own; `logLevel` is wrangler's
 * (its default, "log", prints a line per request).
 */
export const startDevWorker = async (
  name: string,
  args: string[],
  options: { secrets?: Record<string, string>; logLevel?: string } = {},
): Promise<DevWorker> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(name, args, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === ATTEMPTS) throw error;
      console.error(`[bench] ${error.message}; trying other ports.`);
    }
  }
};

const startOnce = async (
  name: string,
  args: string[],
  { secrets = {}, logLevel = "log" }: { secrets?: Record<string, string>; logLevel?: string },
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
      "--log-level",
      logLevel,
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
  const stop = async () => {
    killGroup(child);
    await exited;
  };

  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      if (output.includes("Address already in use")) throw new PortTaken(`A port of ${name} was taken`);
      throw new Error(`wrangler dev for ${name} exited early:\n${output}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev for ${name} did not answer on ${origin}:\n${output}`);
    }
    let answeredBy: string | null | undefined;
    try {
      const response = await fetch(origin, { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      answeredBy = response.headers.get(WORKER_HEADER);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    if (answeredBy === name) return { name, origin, stop };
    await stop();
    throw new PortTaken(`Another server answers on ${origin}, meant for ${name}`);
  }
};
