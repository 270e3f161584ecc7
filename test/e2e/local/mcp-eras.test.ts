import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, inject, it } from "vitest";
import { expectMcpConformance } from "../../helpers/mcp-conformance";

// Each protocol era with the official SDK that speaks it, over real HTTP against the Worker:
// the v2 client (@modelcontextprotocol/client) pinned to 2026-07-28, with no fallback to the
// handshake, and the v1 client (@modelcontextprotocol/sdk) on 2025-11-25. Every answer either
// gets is held to MCP's schemas on its way (test/helpers/mcp-conformance.ts).

// The suite's server and key (test/e2e/helpers/global-setup.ts): these clients need no state of their own.
const api = { origin: inject("baseUrl"), apiKey: inject("apiKey") };

/** fetch, with every answer checked against MCP's schemas, and each request's headers kept. */
const checked = (sent: Headers[]) => async (url: string | URL, init?: RequestInit) => {
  sent.push(new Headers(init?.headers));
  const response = await fetch(url, init);
  await expectMcpConformance(init?.method ?? "GET", typeof init?.body === "string" ? init.body : "", response);
  return response;
};
const requestInit = () => ({ headers: { Authorization: `Bearer ${api.apiKey}` } });

describe("the official SDK's v2 client, pinned to 2026-07-28", () => {
  it("discovers the server, lists the tools and calls one, sending the revision's headers, never initialize", async () => {
    const sent: Headers[] = [];
    const client = new ModernClient(
      { name: "petstore-e2e-modern", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(
      new ModernTransport(new URL(`${api.origin}/mcp`), { requestInit: requestInit(), fetch: checked(sent) }),
    );
    expect(client.getServerVersion()).toMatchObject({ name: "petstore-edge-api" });
    const { tools } = await client.listTools();
    expect(tools.map(({ name }) => name)).toEqual(["list_pets", "create_pet", "get_pet"]);
    const created = await client.callTool({ name: "create_pet", arguments: { name: "Modern Rex", categoryId: 1 } });
    expect(created.structuredContent).toMatchObject({ name: "Modern Rex", categoryId: 1, status: "available" });
    const refused = await client.callTool({ name: "list_pets", arguments: { limit: "5" } });
    expect(refused.isError).toBe(true);
    await client.close();
    const methods = sent.map((headers) => headers.get("Mcp-Method"));
    expect(methods).toEqual(["server/discover", "tools/list", "tools/call", "tools/call"]);
    expect(sent.every((headers) => headers.get("MCP-Protocol-Version") === "2026-07-28")).toBe(true);
    expect(sent[2]?.get("Mcp-Name")).toBe("create_pet");
  });
});

describe("the official SDK's v1 client, on 2025-11-25", () => {
  it("initializes, lists the tools and calls one", async () => {
    const sent: Headers[] = [];
    const client = new LegacyClient({ name: "petstore-e2e-legacy", version: "1.0.0" });
    await client.connect(
      new LegacyTransport(new URL(`${api.origin}/mcp`), { requestInit: requestInit(), fetch: checked(sent) }),
    );
    expect(client.getServerVersion()).toMatchObject({ name: "petstore-edge-api" });
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(3);
    const listed = await client.callTool({ name: "list_pets", arguments: { limit: 1 } });
    expect(listed.isError).toBeFalsy();
    await client.close();
    // The session's requests, after initialize, say the version it agreed on.
    const versions = sent.map((headers) => headers.get("MCP-Protocol-Version")).filter(Boolean);
    expect(new Set(versions)).toEqual(new Set(["2025-11-25"]));
  });
});
