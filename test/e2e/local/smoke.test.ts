import { execFile } from "node:child_process";
import { promisify, stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DevServer } from "../../../scripts/dev-server";
import { startScratchServer } from "../global-setup";

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
  try {
    const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "smoke", "--", "--base-url", baseUrl], {
      env: { ...process.env, SMOKE_KEY: "", ...env },
    });
    return { code: 0, output: stripVTControlCharacters(stdout) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stripVTControlCharacters(stdout + stderr) };
  }
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
