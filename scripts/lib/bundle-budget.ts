import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

/**
 * The Worker's size, gzipped, that a change may not exceed: a larger one starts slower
 * everywhere. 60 KiB for the API, and at most 4 more for its MCP endpoint (src/mcp/).
 */
export const BUNDLE_BUDGET_KIB = 64;

/** The size in KiB of a built Worker, gzipped; throws if it is over BUNDLE_BUDGET_KIB. */
export const checkBundleBudget = (bundle: string): number => {
  const gzipKiB = gzipSync(readFileSync(bundle)).length / 1024;
  if (gzipKiB > BUNDLE_BUDGET_KIB) {
    throw new Error(`The Worker is ${gzipKiB.toFixed(2)} KiB gzip, over its budget of ${BUNDLE_BUDGET_KIB} KiB.`);
  }
  return gzipKiB;
};
