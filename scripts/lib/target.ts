// Where a script's wrangler commands go: the local D1 and KV of `npm run dev` (or of a
// `--persist-to <dir>` scratch copy, as the e2e tests and the bench keep), or an
// environment's remote ones. Shared by the scripts that take `--env`, `--remote` and
// `--persist-to`.
import path from "node:path";
import { excerpt } from "../../src/lib/display-text";
import { nearest } from "./options";

export type Target = {
  env?: string;
  remote: boolean;
  persistTo?: string;
  /** The API's wrangler configuration, when not the repository's wrangler.toml (a scratch copy that lists other segments). */
  config?: string;
};

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The folder of a local target's state, as `wrangler dev --persist-to` names it (by default .wrangler/state). */
export const localState = (target: Target) => path.resolve(target.persistTo ?? path.join(ROOT, ".wrangler", "state"));

/** The target's wrangler configuration. */
export const configOf = (target: Target) => target.config ?? "wrangler.toml";

/** The environments of wrangler.toml that are deployed ([env.*]). */
export const DEPLOYED_ENVIRONMENTS = ["staging", "production"];

/** The options of node:util's parseArgs that name a target. */
export const TARGET_OPTIONS = {
  env: { type: "string" },
  remote: { type: "boolean", default: false },
  "persist-to": { type: "string" },
} as const;

export const targetFrom = (values: { env?: string; remote?: boolean; "persist-to"?: string }): Target => {
  const target: Target = { env: values.env, remote: values.remote ?? false, persistTo: values["persist-to"] };
  if (target.env && !DEPLOYED_ENVIRONMENTS.includes(target.env)) {
    const near = nearest(target.env, DEPLOYED_ENVIRONMENTS);
    throw new Error(
      `--env is '${excerpt(target.env)}'${near ? `: did you mean ${near}?` : "."} It must be staging or production (omit it for local development).`,
    );
  }
  if (target.remote && target.persistTo) throw new Error("--persist-to names local state; it cannot go with --remote.");
  return target;
};

export const targetArgs = ({ env, remote, persistTo, config }: Target) => [
  ...(config ? ["--config", config] : []),
  ...(env ? ["--env", env] : []),
  ...(remote ? ["--remote"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])]),
];

export const describeTarget = ({ env, remote, persistTo }: Target, storage: "KV" | "D1") =>
  `${env ?? "development"} (${remote ? "remote" : "local"} ${storage}${persistTo ? ` in ${persistTo}` : ""})`;
