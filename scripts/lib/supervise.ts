// Children that must not outlive this process: each in a process group of its own
// (spawned `detached`), so that a server and what it started stop together; all of them
// killed, and their scratch directories removed, when this process exits, fails or is
// interrupted. And free ports for them. Shared by scripts/lib/dev-server.ts and scripts/lib/prism.ts.
import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:net";

const STOP_GRACE_MS = 10_000;
const OUTPUT_KEPT = 64 * 1024;

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
export const installCleanup = () => {
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
