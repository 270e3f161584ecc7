// `npm run smoke -- --base-url https://petstore.<account>.workers.dev --key ps_live_...`
//
// The e2e tests that are safe against a live deployment (test/e2e/live: no floods, a
// few pets created, each named "smoke-test ..."), run against the given server instead
// of a scratch `npm run dev`. scripts/deploy.ts runs it after a deploy when configured.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startVitest } from "vitest/node";
import { API_KEY_PATTERN } from "../src/api-keys";

type SmokeTarget = { baseUrl: string; key: string };

/** The server and key to test, checked before anything runs (scripts/deploy.ts: before it deploys). */
export const smokeTarget = (baseUrl: string, key: string): SmokeTarget => {
  const url = URL.parse(baseUrl);
  if (!url || !["http:", "https:"].includes(url.protocol) || url.href !== `${url.origin}/`) {
    throw new Error(`The base URL must be an http(s) origin, such as https://petstore.example.workers.dev: ${baseUrl}`);
  }
  if (!API_KEY_PATTERN.test(key)) throw new Error("The key is not an API key (ps_live_... or ps_test_...).");
  return { baseUrl: url.origin, key };
};

/** Runs test/e2e/live against the target; vitest prints the results and sets process.exitCode if they fail. */
export const runSmokeTest = async ({ baseUrl, key }: SmokeTarget) => {
  // In this process rather than a child's, so that the key is in no command line or environment.
  await startVitest(["test/e2e/live/"], { run: true, project: "e2e", provide: { baseUrl, apiKey: key } });
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    const { values } = parseArgs({ options: { "base-url": { type: "string" }, key: { type: "string" } } });
    if (!values["base-url"] || !values.key) {
      throw new Error("Usage: npm run smoke -- --base-url <https://...> --key <API key>");
    }
    await runSmokeTest(smokeTarget(values["base-url"], values.key));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
