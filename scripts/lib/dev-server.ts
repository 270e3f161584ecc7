// Runs `wrangler dev` (or `npm run dev`, which ends in it) in the background for the
// bench, the persistence check and the tests that speak HTTP: on free ports chosen at
// run time (others may be running wrangler dev on 8787 and elsewhere), on a state
// directory of its own (never the developer's .wrangler/state), in a process group of
// its own so that wrangler and its workerd stop together, and stopped when this
// process exits, fails or is interrupted (scripts/lib/supervise.ts).
import { type SpawnOptions, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, installCleanup, supervise } from "./supervise";
import { BOTH_WORKERS, LOCAL_TRACES_SWITCH, spawnWrangler, wranglerEnv } from "./wrangler";

export { LOCAL_TRACES_SWITCH } from "./wrangler";

/**
 * Throws if wrangler dev kept traces under `persistTo`: the collector's store, which it
 * makes when it starts the collector, exists although the switch said no (a wrangler that
 * renamed the switch).
 */
export const checkNoLocalTraces = (persistTo: string) => {
  const store = path.join(persistTo, "v3", "observability");
  if (existsSync(store)) {
    throw new Error(
      `wrangler dev started its local trace collector (${store}) although ${LOCAL_TRACES_SWITCH} is false`,
    );
  }
};

export type DevServer = {
  origin: string;
  /** The leader of the server's process group (the bench reads the CPU time of its processes). */
  pid: number;
  /** wrangler dev's DevTools inspector (the bench's profiler connects to it). */
  inspectorPort: string;
  /** The --persist-to directory: the local D1 and KV, and scripts/dev.ts's key file. */
  persistTo: string;
  /** What the server printed (the last 64 KiB). */
  output: () => string;
  stop: () => Promise<void>;
  /** Kills the server's whole group with SIGKILL, mid-write if it is writing: a crash. A given persistTo is kept. */
  kill: () => Promise<void>;
};

type DevServerOptions = {
  /** Names the server in messages. */
  name: string;
  /**
   * "npm run dev" runs scripts/dev.ts (migrations, .dev.vars, a development key kept
   * under --persist-to, then wrangler dev with the same arguments); "wrangler dev"
   * starts the Worker alone.
   */
  command: "npm run dev" | "wrangler dev";
  /** More arguments for wrangler dev; --ip, --port, --inspector-port and --persist-to are added here. */
  args?: string[];
  /** Given, it is kept; else a scratch directory is made and removed on stop. */
  persistTo?: string;
  /** Added to wrangler's environment (the bench hands its Worker's secrets over this way). */
  env?: Record<string, string>;
  /**
   * The first answer on the port tells whether it came from the server started here;
   * by default GET /v1/openapi.json must succeed.
   */
  probe?: { path: string; isOurs: (response: Response) => boolean };
};

const ROOT = path.resolve(import.meta.dirname, "../..");
// A guard against a server that never answers, far above its start on a loaded machine (tens of seconds).
const READY_TIMEOUT_MS = 600_000;
const ATTEMPTS = 3;
const DEFAULT_PROBE = { path: "/v1/openapi.json", isOurs: (response: Response) => response.ok };

/** Another process took a port between freePort() and wrangler's bind (or so it seems: `output` tells). */
class PortTaken extends Error {
  readonly output: string;

  constructor(message: string, output: string) {
    super(message);
    this.output = output;
  }
}

/** Starts the server and resolves once it answers; on a port clash it tries other ports. */
export const startDevServer = async (options: DevServerOptions): Promise<DevServer> => {
  installCleanup();
  const scratch = options.persistTo ? undefined : mkdtempSync(path.join(tmpdir(), "petstore-dev-server-"));
  const persistTo = options.persistTo ?? (scratch as string);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, persistTo, scratch);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === ATTEMPTS) {
        if (scratch) rmSync(scratch, { recursive: true, force: true });
        throw error instanceof PortTaken ? new Error(`${error.message}; its output:\n${error.output}`) : error;
      }
      console.error(`[dev-server] ${error.message}; trying other ports.`);
    }
  }
};

const startOnce = async (
  { name, command, args = [], env = {}, probe = DEFAULT_PROBE }: DevServerOptions,
  persistTo: string,
  scratch: string | undefined,
): Promise<DevServer> => {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const devArgs = [
    ...args,
    ...["--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort)],
    ...["--persist-to", persistTo, "--show-interactive-dev-session=false"],
  ];
  const options: SpawnOptions = {
    cwd: ROOT,
    env: { ...wranglerEnv, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  };
  // scripts/dev.ts runs as package.json runs it, without npm in front, so that the group's
  // leader is the process that exits last: it waits for wrangler, which waits for workerd.
  const child =
    command === "npm run dev"
      ? spawn(process.execPath, ["--import", "tsx", "scripts/dev.ts", ...devArgs], options)
      : spawnWrangler(["dev", ...(args.includes("--config") ? [] : BOTH_WORKERS), ...devArgs], options);
  const { output, hasExited, halt, kill, forget } = supervise(child, { scratch });
  const removingScratch = (end: () => Promise<void>) => async () => {
    await end();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  };
  const stop = removingScratch(halt);

  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (hasExited()) {
      forget();
      if (output().includes("Address already in use")) throw new PortTaken(`A port of ${name} was taken`, output());
      throw new Error(`${command} for ${name} exited early:\n${output()}`);
    }
    if (Date.now() > deadline) {
      await halt();
      throw new Error(
        `${command} for ${name} did not answer on ${origin} within ${READY_TIMEOUT_MS / 1000} s:\n${output()}`,
      );
    }
    let response: Response;
    try {
      response = await fetch(new URL(probe.path, origin), { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    if (probe.isOurs(response)) {
      return {
        origin,
        pid: child.pid ?? 0,
        inspectorPort: String(inspectorPort),
        persistTo,
        output,
        stop,
        kill: removingScratch(kill),
      };
    }
    await halt();
    throw new PortTaken(
      `Another server answers on ${origin} (${response.status} to ${probe.path}), meant for ${name}`,
      output(),
    );
  }
};
