import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * Each Worker's size, gzipped, that a change may not exceed: a larger one starts slower
 * everywhere. The API (wrangler.toml), MCP endpoint included; and the sign-in Worker
 * (wrangler.auth.toml), nearly all of it @cloudflare/workers-oauth-provider, which would
 * have taken the API half again over its budget (docs/architecture.md).
 */
export const BUNDLE_BUDGETS_KIB = { api: 80, signIn: 40 } as const;

/** The size in KiB of a built Worker, gzipped; throws if it is over `budgetKiB`. */
export const checkBundleBudget = (bundle: string, budgetKiB: number): number => {
  const gzipKiB = gzipSync(readFileSync(bundle)).length / 1024;
  if (gzipKiB > budgetKiB) {
    throw new Error(`The Worker ${bundle} is ${gzipKiB.toFixed(2)} KiB gzip, over its budget of ${budgetKiB} KiB.`);
  }
  return gzipKiB;
};

/** Empties `outdir`, for a build to write into: a bundle left by an earlier build is never measured. */
export const freshOutdir = (outdir: string) => {
  rmSync(outdir, { recursive: true, force: true });
  return outdir;
};

/** The one bundle a build wrote into `outdir`, whatever its entry was named. */
export const builtBundle = (outdir: string) => {
  const bundles = readdirSync(outdir).filter((name) => name.endsWith(".js"));
  if (bundles.length !== 1)
    throw new Error(`Expected one bundle in ${outdir}, found: ${bundles.join(", ") || "none"}.`);
  return path.join(outdir, bundles[0] as string);
};
