import { execFile } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKey, baseUrl } from "../helpers/client";

// What a caller who never reads our docs does: generate an SDK from the served document
// with openapi-typescript (types for openapi-fetch) or @hey-api/openapi-ts, type-check a
// short program against it with TypeScript 5 (test/sdks, a project of its own), and run
// it against the Worker in wrangler's test harness.

const SDKS = path.resolve(import.meta.dirname, "../../sdks");
const GENERATED = path.join(SDKS, "generated");
const run = promisify(execFile);
const node = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, args, { cwd: SDKS, env: { ...process.env, ...env } });

beforeAll(async () => {
  rmSync(GENERATED, { recursive: true, force: true });
  const served = await fetch(`${baseUrl}/v1/openapi.json`);
  expect(served.status).toBe(200);
  writeFileSync(path.join(SDKS, "served-openapi.json"), await served.text());
  await node(["generate.mjs", "served-openapi.json", "generated"]);
});
afterAll(() => rmSync(path.join(SDKS, "served-openapi.json"), { force: true }));

it("type-checks both programs with TypeScript 5, strict", async () => {
  const tsc = path.join(SDKS, "node_modules/typescript/bin/tsc");
  const { stdout } = await node([tsc, "-p", ".", "--listFiles"]);
  expect(stdout).toContain(path.join(GENERATED, "hey-api/sdk.gen.ts"));
  expect(stdout).toContain(path.join(GENERATED, "openapi-typescript.ts"));
});

it.each(["openapi-fetch", "hey-api"])(
  "runs the %s program: creates without status, follows a page's cursor, reads an error",
  async (program) => {
    const { stdout } = await node(["--import", "tsx", `programs/${program}.ts`], {
      BASE_URL: `${baseUrl}/v1`,
      API_KEY: apiKey,
    });
    const result = JSON.parse(stdout);
    expect(result.created).toEqual([
      [201, "available"],
      [201, "available"],
      [201, "available"],
    ]);
    expect(result.first).toHaveLength(2);
    expect(result.second.length).toBeGreaterThan(0);
    expect(Math.min(...result.second)).toBeGreaterThan(Math.max(...result.first));
    expect(result.missing).toEqual([404, "not_found", "Thu, 05 Dec 2030 00:00:00 GMT"]);
  },
  30_000,
);
