// Runs `wrangler dev` (or `npm run dev`, which ends in it) in the background for the
// bench, the persistence check and the tests that speak HTTP: on free ports chosen at
// run time (others may be running wrangler dev on 8787 and elsewhere), on a state
// directory of its own (never the developer's .wrangler/state), in a process group of
// its own so that wrangler and its workerd stop together, and stopped when this
// process exits, fails or is interrupted.
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnWrangler, wranglerEnv } from "./wrangler";

export type DevServer = {
  origin: string;
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

const ROOT = path.resolve(import.meta.dirname, "..");
const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;
const ATTEMPTS = 3;
const OUTPUT_KEPT = 64 * 1024;
const DEFAULT_PROBE = { path: "/v1/openapi.json", isOurs: (response: Response) => response.ok };

const running = new Set<{ child: ChildProcess; scratch?: string }>();

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // the group: wrangler and the workerd it started
  } catch {
    // Already gone.
  }
};

let cleanupInstalled = false;
const installCleanup = () => {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  // "exit" handlers run synchronously, which is all process.kill and rmSync need.
  process.on("exit", () => {
    for (const { child, scratch } of running) {
      signalGroup(child, "SIGKILL");
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
  });
  // Without a handler, a signal ends this process without "exit" and the groups live on.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the servers started for this run.`);
      process.exit(130);
    });
  }
};

/** A child in a process group of its own (spawned `detached`), watched until it is stopped. */
type Supervised = {
  /** What it printed (the last 64 KiB): kept for error messages, as the pipes must be drained anyway. */
  output: () => string;
  hasExited: () => boolean;
  /** Stops the group: SIGTERM, SIGKILL after a grace period, then whatever outlived the leader. */
  halt: () => Promise<void>;
  /** Kills the group at once with SIGKILL. */
  kill: () => Promise<void>;
  /** For a child that exited by itself: nothing is left to stop when this process exits. */
  forget: () => void;
};

/**
 * Watches a detached child: its output is kept (and handed to `onOutput`), and its group is
 * killed, and `scratch` removed, if this process exits, fails or is interrupted first.
 */
export const supervise = (
  child: ChildProcess,
  { scratch, onOutput }: { scratch?: string; onOutput?: (text: string) => void } = {},
): Supervised => {
  installCleanup();
  const entry = { child, scratch };
  running.add(entry);
  let output = "";
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-OUTPUT_KEPT);
    onOutput?.(text);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    output: () => output,
    hasExited: () => child.exitCode !== null || child.signalCode !== null,
    halt: async () => {
      signalGroup(child, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child, "SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
      signalGroup(child, "SIGKILL");
      running.delete(entry);
    },
    kill: async () => {
      signalGroup(child, "SIGKILL");
      await exited;
      running.delete(entry);
    },
    forget: () => running.delete(entry),
  };
};

// Ports handed out by this process, so that two servers started at once never get the same one.
const handedOut = new Set<number>();

export const freePort = async (): Promise<number> => {
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
  // scripts/dev.ts runs in Node itself, not under npm or the tsx CLI, so that the group's
  // leader is the process that exits last: it waits for wrangler, which waits for workerd.
  const child =
    command === "npm run dev"
      ? spawn(process.execPath, ["--import", "tsx", "scripts/dev.ts", ...devArgs], options)
      : spawnWrangler(["dev", ...devArgs], options);
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
    if (probe.isOurs(response)) return { origin, persistTo, output, stop, kill: removingScratch(kill) };
    await halt();
    throw new PortTaken(
      `Another server answers on ${origin} (${response.status} to ${probe.path}), meant for ${name}`,
      output(),
    );
  }
};
