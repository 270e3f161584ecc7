import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { expectMcpConformance } from "../../helpers/mcp-conformance";
import { type Harness, startHarness } from "../helpers/harness";

// An agent's session through the official MCP SDK's client, over Streamable HTTP, against
// the Worker in wrangler's test harness as staging configures it (its rate limit of 600 a
// minute is one a test can reach); then docs/mcp.md's local recipe, the Inspector's CLI and
// an SDK agent, as the page writes them.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SUNSET = "Thu, 05 Dec 2030 00:00:00 GMT";
let api: Harness;
let readKey: string;

beforeAll(async () => {
  api = await startHarness({ env: "staging", vars: { ACCESS_LOG: "off" } });
  readKey = await api.issueKey({ label: "agent, read only", scopes: ["read"] });
});
afterAll(() => api?.close());

/** fetch, with every answer checked against MCP's official schemas on its way to the client. */
const checkedFetch = async (url: string | URL, init?: RequestInit) => {
  const response = await fetch(url, init);
  await expectMcpConformance(init?.method ?? "GET", typeof init?.body === "string" ? init.body : "", response);
  return response;
};

const connect = async (key = api.apiKey) => {
  const client = new Client({ name: "petstore-e2e-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${api.origin}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: checkedFetch,
  });
  await client.connect(transport);
  return client;
};
type ToolResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: unknown;
  _meta?: unknown;
};
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;
const errorOf = (result: ToolResult) => JSON.parse(result.content[0]?.text ?? "{}");

describe("an agent's session through the official SDK's client", () => {
  it("lists the tools, pages through the pets, creates one once for a repeated key, and is told get_pet is deprecated", async () => {
    const agent = await connect();
    expect(agent.getServerVersion()).toMatchObject({ name: "petstore-edge-api" });
    const { tools } = await agent.listTools();
    expect(tools.map(({ name }) => name)).toEqual(["list_pets", "create_pet", "get_pet"]);
    const annotations = Object.fromEntries(tools.map(({ name, annotations }) => [name, annotations]));
    expect(annotations.list_pets).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(annotations.create_pet).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(annotations.get_pet).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(tools.find(({ name }) => name === "get_pet")?.description).toContain(SUNSET);

    const idempotencyKey = crypto.randomUUID();
    const first = await call(agent, "create_pet", { name: "Agent Rex", categoryId: 1, idempotencyKey });
    const again = await call(agent, "create_pet", { name: "Agent Rex", categoryId: 1, idempotencyKey });
    expect(first.isError).toBeFalsy();
    expect(again.structuredContent).toEqual(first.structuredContent);
    for (const name of ["Agent Tom", "Agent Kit"]) await call(agent, "create_pet", { name, categoryId: 1 });

    const walked: { name: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(agent, "list_pets", { limit: 2, ...(cursor && { cursor }) });
      const { pets, nextCursor } = page.structuredContent as { pets: { name: string }[]; nextCursor?: string };
      walked.push(...pets);
      cursor = nextCursor;
    } while (cursor);
    expect(walked.filter(({ name }) => name === "Agent Rex")).toHaveLength(1);
    expect(walked.map(({ name }) => name)).toEqual(expect.arrayContaining(["Agent Rex", "Agent Tom", "Agent Kit"]));

    const rex = first.structuredContent as { id: number };
    const fetched = await call(agent, "get_pet", { petId: rex.id });
    expect(fetched.structuredContent).toEqual(rex);
    expect(fetched._meta).toMatchObject({ deprecation: { sunset: SUNSET } });
    expect(fetched.content.map(({ text }) => text).join("\n")).toContain(`removed on ${SUNSET}`);
    await agent.close();
  });

  it("is refused 403 for a scope its key lacks (MCP's scope challenge), and gets bad arguments as a tool error that names them", async () => {
    const reader = await connect(readKey);
    await expect(call(reader, "create_pet", { name: "Not allowed", categoryId: 1 })).rejects.toThrow(
      /does not have the 'write' scope.*"status":403/,
    );
    const listed = await call(reader, "list_pets", { limit: 1 });
    expect(listed.isError).toBeFalsy();
    const invalid = await call(reader, "list_pets", { limit: 0 });
    expect(errorOf(invalid)).toMatchObject({
      code: "invalid_request",
      status: 400,
      message: expect.stringContaining("'limit'"),
    });
    await reader.close();
  });

  it("is refused with 401 before any tool runs, for a key the API does not know", async () => {
    await expect(connect(`ps_test_${"0".repeat(43)}`)).rejects.toThrow(/401/);
  });

  it("hits the key's rate limit with its tool calls, and is told when to come back", async () => {
    // docs/mcp.md: 600 requests a minute per key, deployed (staging's limit, here); the 601st is refused.
    const listOne = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "list_pets", arguments: { limit: 1 } },
    };
    const { accepted, refused } = await inOneLimiterWindow(async () => {
      const headers = {
        Authorization: `Bearer ${await api.issueKey({ label: "busy agent" })}`,
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2025-11-25",
      };
      const send = async () => {
        const response = await fetch(`${api.origin}/mcp`, { method: "POST", headers, body: JSON.stringify(listOne) });
        return ((await response.json()) as { result: ToolResult }).result;
      };
      let accepted = 0;
      for (let sent = 0; sent < 600; sent += 50) {
        const results = await Promise.all(Array.from({ length: 50 }, send));
        accepted += results.filter((result) => !result.isError).length;
      }
      return { accepted, refused: await send() };
    });
    expect(accepted).toBe(600);
    expect(errorOf(refused)).toMatchObject({ code: "rate_limited", status: 429, retryAfter: 60 });
  });
});

describe("docs/mcp.md's local recipe, as written", () => {
  const recipe = readFileSync(path.join(ROOT, "docs/mcp.md"), "utf8").split("## Trying it locally")[1] ?? "";
  const block = (language: string) => new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\`\`\``).exec(recipe)?.[1] ?? "";
  /** Each command of the shell block, its continued lines joined (its variables are the test's: the harness's, not npm run dev's). */
  const commands = () =>
    block("sh")
      .replaceAll("\\\n", " ")
      .split("\n")
      .filter((line) => line.startsWith("npx "));

  it("lists the tools and adds a pet with the Inspector's CLI, the current one (@modelcontextprotocol/inspector 2.x)", async () => {
    expect(block("sh")).toMatch(/^KEY=\$\(cat \.wrangler\/dev-api-key\)\nMCP=http:\/\/localhost:8787\/mcp\n/);
    const [list, create] = commands();
    const env = { ...process.env, KEY: api.apiKey, MCP: `${api.origin}/mcp` };
    const run = async (command = "") =>
      JSON.parse((await promisify(execFile)("bash", ["-c", command], { cwd: ROOT, env })).stdout);
    const { tools } = await run(list);
    expect(tools.map(({ name }: { name: string }) => name)).toEqual(["list_pets", "create_pet", "get_pet"]);
    const created = await run(create);
    expect(created.structuredContent).toMatchObject({ name: "Rex", categoryId: 1, status: "available" });
  });

  it("runs the SDK agent of the page, which lists pets", async () => {
    const folder = path.join(ROOT, "node_modules/.cache/mcp-recipe");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "agent.mjs"), block("js"));
    const env = { ...process.env, KEY: api.apiKey, PETSTORE_MCP: `${api.origin}/mcp` };
    const { stdout } = await promisify(execFile)(process.execPath, ["agent.mjs"], { cwd: folder, env });
    expect(JSON.parse(stdout)).toMatchObject({ pets: expect.any(Array) });
  });
});

describe("docs/mcp.md's troubleshooting, as written", () => {
  it("checks a key with its ping line: a valid key is answered, an unknown one is 401", async () => {
    const page = readFileSync(path.join(ROOT, "docs/mcp.md"), "utf8").split("## Troubleshooting")[1] ?? "";
    const line = (/```sh\n([\s\S]*?)```/.exec(page)?.[1] ?? "").replaceAll(/\\\n\s*/g, " ").trim();
    expect(line).toMatch(/^curl .*<url>\/mcp .*"method":"ping"/);
    const ping = async (key: string) => {
      const env = { ...process.env, KEY: key };
      const command = line.replace("<url>", api.origin);
      return (await promisify(execFile)("bash", ["-c", command], { cwd: ROOT, env })).stdout;
    };
    const answered = await ping(api.apiKey);
    expect(answered).toMatch(/^HTTP\/1\.1 200 /);
    expect(answered).toContain('"result":{}');
    expect(await ping("ps_test_unknown")).toMatch(/^HTTP\/1\.1 401 /);
  });
});
