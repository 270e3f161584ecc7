import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
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
  // A database found by name, as a new environment's is bound: its id is the name's place in DATABASES.
  const named = request.method === "GET" && DATABASES.indexOf(decodeURIComponent(request.url?.split("/").at(-1) ?? ""));
  const [status, body] =
    named === false
      ? [answer.status, answer.body]
      : named < 0
        ? [404, { success: false, errors: [{ code: 7404, message: "The database could not be found." }] }]
        : [200, { success: true, result: { uuid: idOf(named), name: DATABASES[named] } }];
  response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
});
const DATABASES = ["petstore-staging", "petstore-production"];
const idOf = (position: number) => `00000000-0000-4000-8000-00000000000${position + 1}`;
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
        method: "GET",
        url: "/client/v4/accounts/0123456789abcdef/d1/database/petstore-production",
        authorization: "Bearer test-token",
        body: null,
      },
      {
        method: "PUT",
        url: `/client/v4/accounts/0123456789abcdef/d1/database/${idOf(1)}`,
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
      { method: "GET", url: expect.stringMatching(/petstore-staging$/) },
      { url: expect.stringMatching(`${idOf(0)}$`), body: { read_replication: { mode: "disabled" } } },
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

  it("sends a database's id as the configuration gives it, when it gives one, and stops when no database has the name", async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), "petstore-replication-"));
    const config = path.join(scratch, "wrangler.toml");
    const withId = readFileSync("wrangler.toml", "utf8").replace(
      'database_name = "petstore-staging"\n',
      'database_name = "petstore-staging"\ndatabase_id = "11111111-1111-4111-8111-111111111111"\n',
    );
    writeFileSync(
      config,
      withId.replaceAll('"drizzle"', `"${path.resolve("drizzle")}"`).replace('"src/', `"${path.resolve("src")}/`),
    );
    try {
      recorded.length = 0;
      answer = { status: 200, body: { success: true, result: { read_replication: { mode: "auto" } } } };
      await replication(["--env", "staging", "--config", config]);
      expect(recorded.map(({ method, url }) => `${method} ${url?.split("/").at(-1)}`)).toEqual([
        "PUT 11111111-1111-4111-8111-111111111111",
      ]);
      writeFileSync(
        config,
        withId.replace(/database_id = "1{8}[^"]*"\n/, "").replaceAll("petstore-staging", "petstore-elsewhere"),
      );
      recorded.length = 0;
      await expect(replication(["--env", "staging", "--config", config])).rejects.toThrow(
        "Cloudflare found no D1 database named petstore-elsewhere: The database could not be found.",
      );
      expect(recorded.map(({ method }) => method)).toEqual(["GET"]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
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
