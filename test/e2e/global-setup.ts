import { execFile } from "node:child_process";
import { promisify, stripVTControlCharacters } from "node:util";
import type { TestProject } from "vitest/node";
import { type DevServer, startDevServer } from "../../scripts/dev-server";
import { API_KEY_PATTERN } from "../../src/api-keys";
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

/**
 * `npm run --silent <script> -- ...args`, as an operator types it: its exit code and what
 * it printed (colours left out), whether it succeeded or not. Async, so that the tests
 * of a file may run at once, and so that connections the servers close meanwhile are seen
 * closed (a test blocked in a synchronous child would reuse one and get "other side closed").
 */
export const npmScript = async (script: string, args: string[], env: Record<string, string> = {}) => {
  // npm test quiets wrangler (WRANGLER_LOG=warn); an operator's terminal does not.
  const { WRANGLER_LOG: _, ...operatorEnv } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)("npm", ["run", "--silent", script, "--", ...args], {
      env: { ...operatorEnv, ...env },
    });
    return { code: 0, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) };
  }
};

/** Issues a key the documented way (`npm run key:create`) into the local KV under `persistTo`. */
export const issueKey = async (label: string, persistTo: string, options: string[] = []): Promise<string> => {
  const { code, stdout, stderr } = await npmScript("key:create", [label, "--persist-to", persistTo, ...options]);
  if (code !== 0) throw new Error(`npm run key:create failed: ${stderr}`);
  return stdout.trim().split("\n").at(-1) ?? "";
};

/** The development key that `npm run dev` printed (scripts/dev.ts prints it alone on its line). */
export const printedDevKey = (server: DevServer): string => {
  const key = server
    .output()
    .split("\n")
    .map((line) => line.trim())
    .find((line) => API_KEY_PATTERN.test(line));
  if (!key) throw new Error(`npm run dev printed no key:\n${server.output()}`);
  return key;
};

/** A scratch `npm run dev` and the key it printed; `label` names the server in messages. */
export const startScratchServer = async (label: string): Promise<{ server: DevServer; apiKey: string }> => {
  const server = await startDevServer({ name: `the ${label} tests`, command: "npm run dev" });
  try {
    return { server, apiKey: printedDevKey(server) };
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
