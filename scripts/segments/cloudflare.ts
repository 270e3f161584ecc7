// What `npm run segment:open --remote` asks of Cloudflare, in one place so that a test can
// stand in for it (test/node/scripts/segment-open-remote.test.ts records every command):
// wrangler's commands, the environment's deploy, and a database's read replication.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { setReadReplication } from "../d1-replication";
import { wrangler } from "../lib/wrangler";

export type Cloudflare = {
  /** A wrangler command run to completion: its stdout; throws with its output when it fails. */
  wrangler: (args: string[]) => string;
  /** Deploys `env` from `config`. */
  deploy: (env: string, config: string) => void;
  /** `npm run d1:replication -- ...args`: what it reports. */
  replicate: (args: string[]) => Promise<string>;
};

const ROOT_CONFIG = path.resolve(import.meta.dirname, "../..", "wrangler.toml");

/** Cloudflare itself, with the credentials of this process's environment. */
export const cloudflare: Cloudflare = {
  wrangler,
  deploy: (env, config) => {
    if (path.resolve(config) !== ROOT_CONFIG) throw new Error("a deploy uses wrangler.toml: run without --config");
    const deployed = spawnSync("npm", ["run", "--silent", `deploy:${env}`], { stdio: "inherit" });
    if (deployed.status !== 0) throw new Error(`npm run deploy:${env} failed`);
  },
  replicate: (args) => setReadReplication(args, process.env),
};
