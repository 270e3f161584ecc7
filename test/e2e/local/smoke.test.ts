import { afterAll, beforeAll, expect, it } from "vitest";
import type { DevServer } from "../../../scripts/dev-server";
import { npmScript, startScratchServer } from "../global-setup";

// `npm run smoke`, as an operator or the deploy workflow runs it: given the base address
// that the document's servers name (with /v1), the key in SMOKE_KEY, against a scratch
// `npm run dev` of its own.

let server: DevServer;
let key = "";
beforeAll(async () => {
  ({ server, apiKey: key } = await startScratchServer("smoke script"));
}, 120_000);
afterAll(() => server?.stop());

const smoke = async (baseUrl: string, env: Record<string, string> = {}) => {
  const { code, stdout, stderr } = await npmScript("smoke", ["--base-url", baseUrl], { SMOKE_KEY: "", ...env });
  return { code, output: stdout + stderr };
};

it("passes against the base address with /v1, the key taken from SMOKE_KEY", async () => {
  const { code, output } = await smoke(`${server.origin}/v1`, { SMOKE_KEY: key });
  expect(output).toMatch(/Test Files +\S*\d+ passed/);
  expect(code).toBe(0);
}, 120_000);

it.each([
  ["a path other than /v1", "/v2", /must be the API's base address/],
  ["a query", "/v1?x=1", /must be the API's base address/],
])("refuses a base URL with %s, saying what it takes", async (_what, suffix, message) => {
  const { code, output } = await smoke(`${server.origin}${suffix}`, { SMOKE_KEY: key });
  expect(code).not.toBe(0);
  expect(output).toMatch(message);
});

it("refuses to run without a key, saying where to give it", async () => {
  const { code, output } = await smoke(server.origin);
  expect(code).not.toBe(0);
  expect(output).toMatch(/--key, or in SMOKE_KEY/);
});
