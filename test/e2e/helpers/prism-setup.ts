import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { type Prism, startPrism } from "../../../scripts/lib/prism";
import { shareHarness } from "./harness";

// test/e2e/live through Prism's validating proxy: the tests talk to `prism proxy`, which
// forwards to the Worker in wrangler's test harness (the e2e project's) and checks every answer against openapi.json.
// Without --errors Prism hands the API's own answers on (with it, Prism would answer
// for the API, even the 401 of a request without a key: its CLI always checks security),
// and it only logs the violations it finds; any of them in a response fails the run.
// --validate-request=false: the tests send requests that break the rules on purpose.
// --cors=false: Prism would add CORS headers of its own to every answer.

const DOCUMENT = path.join(import.meta.dirname, "../../../openapi.json");

/**
 * Prism matches a request's path against `paths` as they are, without the servers' base
 * path (/v1) that the tests' URLs carry: it reads a copy of the document whose paths do.
 */
const documentForPrism = (directory: string) => {
  const document = JSON.parse(readFileSync(DOCUMENT, "utf8"));
  const prefix = new URL(document.servers[0].url.replaceAll(/[{}]/g, "")).pathname;
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([template, item]) => [`${prefix}${template}`, item]),
  );
  const file = path.join(directory, "openapi.json");
  writeFileSync(file, JSON.stringify(document));
  return file;
};

export default async function setup(project: TestProject) {
  const { harness: server, release } = await shareHarness();
  // A key of its own: the tests through Prism count against the rate limit apart from the others.
  const apiKey = await server.issueKey({ label: "e2e through Prism" });
  const scratch = mkdtempSync(path.join(tmpdir(), "petstore-prism-"));
  const stopServer = async () => {
    await release();
    rmSync(scratch, { recursive: true, force: true });
  };
  let prism: Prism;
  try {
    const args = ["--validate-request=false", "--cors=false"];
    prism = await startPrism(["proxy", documentForPrism(scratch), server.origin, ...args]);
  } catch (error) {
    await stopServer();
    throw error;
  }
  project.provide("baseUrl", prism.origin);
  project.provide("apiKey", apiKey);
  project.provide("throughPrism", true);
  return async () => {
    const violations = prism.responseViolations();
    // Its log goes to a file that the run names, so that a failure stays the last thing it prints.
    const log = path.join(tmpdir(), `petstore-prism-${process.pid}.log`);
    writeFileSync(log, prism.output());
    await prism.stop();
    await stopServer();
    if (violations.length > 0) {
      throw new Error(
        `Prism found answers that openapi.json does not describe (its log: ${log}):\n${violations.join("\n")}`,
      );
    }
    if (project.vitest.state.getCountOfFailedTests() > 0) console.error(`Prism's log: ${log}`);
  };
}
