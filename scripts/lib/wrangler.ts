import { type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

// Offline-friendly defaults: no Request.cf download, no metrics.
export const wranglerEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
};

const wranglerBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin/wrangler.js",
);

/** Runs a wrangler command to completion and returns its stdout; throws with its output on failure. */
export const wrangler = (args: string[]): string => {
  // What is read from stdout (--json, a KV value) is logged at the "log" level: a quieter
  // WRANGLER_LOG in the caller's environment would leave it empty.
  const level = process.env.WRANGLER_LOG === "debug" ? "debug" : "log";
  const result = spawnSync(process.execPath, [wranglerBin, ...args], {
    env: { ...wranglerEnv, WRANGLER_LOG: level },
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`wrangler ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
};

/** Runs a wrangler command in this terminal (its progress and prompts shown); throws if it fails. */
export const runWrangler = (args: string[], env: Record<string, string> = {}) => {
  const result = spawnSync(process.execPath, [wranglerBin, ...args], {
    env: { ...wranglerEnv, ...env },
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed.`);
};

/**
 * wrangler dev's switch for its local trace collector, on unless set to false: it streams
 * every request's trace to a Worker in the Worker's own workerd, which keeps them all in
 * SQLite for the local explorer, without bound. Production has nothing like it, so npm run
 * dev and the bench turn it off.
 */
export const LOCAL_TRACES_SWITCH = "X_LOCAL_OBSERVABILITY";

/** Starts a long-running wrangler command (wrangler dev) attached to this terminal. */
export const spawnWrangler = (args: string[], options: SpawnOptions = { stdio: "inherit" }) =>
  spawn(process.execPath, [wranglerBin, ...args], { env: wranglerEnv, ...options });

/** The sign-in Worker's configuration (src/auth-server/), beside the API's wrangler.toml. */
export const SIGN_IN_CONFIG = "wrangler.auth.toml";
/** `wrangler dev`'s arguments for both Workers in one process, the API first (it takes the port). */
export const BOTH_WORKERS = ["--config", "wrangler.toml", "--config", SIGN_IN_CONFIG];

/**
 * wrangler.toml (or `config`) as wrangler resolves it for an environment (its Worker's name,
 * its bindings' ids). The package is imported here only: loading it takes seconds, which
 * every script that merely runs wrangler's CLI would pay.
 */
export const workerConfig = async (env: string, config = "wrangler.toml") =>
  (await import("wrangler")).unstable_readConfig({ env, config });
