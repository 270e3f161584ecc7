import { execFile, execFileSync } from "node:child_process";
import { promisify, stripVTControlCharacters } from "node:util";
import type { TestProject } from "vitest/node";
import { type DevServer, startDevServer } from "../../scripts/dev-server";
import { startHarness } from "./harness";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
    /** Set by test/e2e/prism-setup.ts: the requests go through Prism's validating proxy. */
    throughPrism?: boolean;
    /**
     * Set by `npm run smoke -- --version <id>`: the value of Cloudflare-Workers-Version-Overrides
     * on every request, so that a version that takes no traffic yet answers them.
     */
    versionOverride?: string;
  }
}

/** Issues a key the documented way (`npm run key:create`) into the local KV under `persistTo`. */
export const issueKey = (label: string, persistTo: string, options: string[] = []): string => {
  const printed = execFileSync(
    "npm",
    ["run", "--silent", "key:create", "--", label, "--persist-to", persistTo, ...options],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  return printed.trim().split("\n").at(-1) ?? "";
};

/**
 * `npm run --silent <script> -- ...args`, as an operator types it: its exit code and what
 * it printed (colours left out), whether it succeeded or not. Async, so that the tests
 * of a file may run at once.
 */
export const npmScript = async (script: string, args: string[], env: Record<string, string> = {}) => {
  try {
    const { stdout, stderr } = await promisify(execFile)("npm", ["run", "--silent", script, "--", ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) };
  }
};

/** A scratch `npm run dev` with a key issued the documented way; `label` names both. */
export const startScratchServer = async (
  label: string,
  args: string[] = [],
): Promise<{ server: DevServer; apiKey: string }> => {
  const server = await startDevServer({ name: `the ${label} tests`, command: "npm run dev", args });
  try {
    return { server, apiKey: issueKey(label, server.persistTo) };
  } catch (error) {
    await server.stop();
    throw error;
  }
};

/**
 * The server under test: the deployment that scripts/smoke.ts provides, else the Worker
 * in wrangler's test harness (test/e2e/harness.ts), closed when the run ends.
 */
export default async function setup(project: TestProject) {
  if (project.getProvidedContext().baseUrl) return;
  const harness = await startHarness();
  project.provide("baseUrl", harness.origin);
  project.provide("apiKey", harness.apiKey);
  return () => harness.close();
}
