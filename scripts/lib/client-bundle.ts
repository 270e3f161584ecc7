import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** The client's size, minified and gzipped, that a change may not exceed: it ships inside its callers. */
export const CLIENT_BUDGET_BYTES = 5 * 1024;

const ENTRY = path.resolve(import.meta.dirname, "../../client/src/index.ts");

/** The client as one minified ES module, as a caller's bundler makes of it (and as a page loads it). */
export const bundleClient = async (): Promise<string> => {
  const { outputFiles } = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return outputFiles[0]?.text ?? "";
};

/** The client's size in bytes, minified and gzipped; throws if it is over CLIENT_BUDGET_BYTES. */
export const checkClientBudget = (bundle: string): number => {
  const bytes = gzipSync(bundle).length;
  if (bytes > CLIENT_BUDGET_BYTES) {
    throw new Error(`The client is ${bytes} bytes gzip, over its budget of ${CLIENT_BUDGET_BYTES} bytes.`);
  }
  return bytes;
};
