import { createServer, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setReadReplication } from "../../../scripts/d1-replication";
import { npmScript } from "../../e2e/helpers/npm-script";

// `npm run d1:replication` against a stand-in for Cloudflare's API that records what it
// was asked and answers as the API does: once as an operator types it (a process, its
// output and exit code), then through the same function in this process.

type Recorded = { method?: string; url?: string; authorization?: string; body: unknown };
const recorded: Recorded[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };
const standIn = createServer(async (request: IncomingMessage, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk);
  recorded.push({
    method: request.method,
    url: request.url,
    authorization: request.headers.authorization,
    body: JSON.parse(Buffer.concat(chunks).toString() || "null"),
  });
  response.writeHead(answer.status, { "Content-Type": "application/json" }).end(JSON.stringify(answer.body));
});
let api = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
  const address = standIn.address();
  if (!address || typeof address === "string") throw new Error("the stand-in has no port");
  api = `http://127.0.0.1:${address.port}/client/v4`;
});
afterAll(() => new Promise((resolve) => standIn.close(resolve)));

const credentials = { CLOUDFLARE_API_TOKEN: "test-token", CLOUDFLARE_ACCOUNT_ID: "0123456789abcdef" };
const replication = (args: string[], env: Record<string, string> = credentials) =>
  setReadReplication(args, { CLOUDFLARE_API_BASE_URL: api, ...env });

describe("npm run d1:replication", () => {
  it("asks the API to turn read replication on for the environment's database, with the token", async () => {
    recorded.length = 0;
    answer = { status: 200, body: { success: true, errors: [], result: { read_replication: { mode: "auto" } } } };
    const { code, stdout } = await npmScript("d1:replication", ["--env", "production"], {
      CLOUDFLARE_API_BASE_URL: api,
      ...credentials,
    });
    expect(code).toBe(0);
    expect(stdout).toContain("Read replication of petstore-production (production): auto");
    expect(recorded).toEqual([
      {
        method: "PUT",
        url: "/client/v4/accounts/0123456789abcdef/d1/database/00000000-0000-0000-0000-000000000002",
        authorization: "Bearer test-token",
        body: { read_replication: { mode: "auto" } },
      },
    ]);
  });

  it("turns it off with --off, for staging's database", async () => {
    recorded.length = 0;
    answer = { status: 200, body: { success: true, result: { read_replication: { mode: "disabled" } } } };
    expect(await replication(["--env", "staging", "--off"])).toBe(
      "Read replication of petstore-staging (staging): disabled",
    );
    expect(recorded).toMatchObject([
      { url: expect.stringMatching(/0000000001$/), body: { read_replication: { mode: "disabled" } } },
    ]);
  });

  it("takes a segment of pets by its binding, and sends nothing for one the environment does not bind", async () => {
    recorded.length = 0;
    await expect(replication(["--env", "staging", "--binding", "PETS_1"])).rejects.toThrow(
      "wrangler.toml gives staging no D1 database bound to PETS_1.",
    );
    expect(recorded).toEqual([]);
    answer = { status: 200, body: { success: true, result: { read_replication: { mode: "auto" } } } };
    expect(await replication(["--env", "staging", "--binding", "DB"])).toBe(
      "Read replication of petstore-staging (staging): auto",
    );
  });

  it("fails with the API's reason when it refuses", async () => {
    answer = { status: 403, body: { success: false, errors: [{ code: 10000, message: "Authentication error" }] } };
    await expect(replication(["--env", "production"])).rejects.toThrow(
      "Cloudflare refused to set read replication of petstore-production to auto: Authentication error",
    );
  });

  it("sends nothing without credentials or an environment, and says what it needs", async () => {
    recorded.length = 0;
    await expect(
      replication(["--env", "production"], { CLOUDFLARE_API_TOKEN: "", CLOUDFLARE_ACCOUNT_ID: "" }),
    ).rejects.toThrow("Set CLOUDFLARE_API_TOKEN");
    const withoutEnv = await npmScript("d1:replication", [], { CLOUDFLARE_API_BASE_URL: api, ...credentials });
    expect(withoutEnv.code).toBe(1);
    expect(withoutEnv.stderr).toContain(
      "Usage: npm run d1:replication -- --env <staging|production> [--binding PETS_<n>]",
    );
    expect(recorded).toEqual([]);
  });
});
