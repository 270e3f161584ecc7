import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { startDevServer } from "../../scripts/dev-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    apiKey: string;
  }
}

/**
 * The server under test: the deployment that scripts/smoke.ts provides, else a scratch
 * `npm run dev` with a key issued the documented way, stopped when the run ends.
 */
export default async function setup(project: TestProject) {
  if (project.getProvidedContext().baseUrl) return;
  const server = await startDevServer({ name: "the e2e tests", command: "npm run dev" });
  try {
    const printed = execFileSync(
      "npm",
      ["run", "--silent", "key:create", "--", "e2e", "--persist-to", server.persistTo],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    project.provide("baseUrl", server.origin);
    project.provide("apiKey", printed.trim().split("\n").at(-1) ?? "");
  } catch (error) {
    await server.stop();
    throw error;
  }
  return () => server.stop();
}
