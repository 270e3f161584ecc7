import { expect, it } from "vitest";
import { api } from "../helpers/client";

// The MCP endpoint of the deployment, as an agent meets it first: it initializes, lists the
// tools and reads one page (nothing written); and the sign-in Worker behind it answers.
// test/e2e/local/mcp.test.ts runs a whole session.

const MCP = "MCP's JSON-RPC over HTTP, which the MCP specification describes, not openapi.json";
const rpc = async (method: string, params: Record<string, unknown> = {}) => {
  const response = await api("/mcp", {
    method: "POST",
    json: { jsonrpc: "2.0", id: 1, method, params },
    // As a client of 2025-11-25 sends it: every request but the handshake's opening repeats its version.
    ...(method !== "initialize" && { headers: { "MCP-Protocol-Version": "2025-11-25" } }),
    outsideContract: MCP,
  });
  expect(response.status, `${method} answered ${response.status}`).toBe(200);
  return ((await response.json()) as { result: Record<string, unknown> }).result;
};

it("POST /mcp initializes, lists the three tools and lists pets through list_pets", async () => {
  const clientInfo = { name: "smoke", version: "1.0.0" };
  const initialized = await rpc("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo });
  expect(initialized).toMatchObject({ protocolVersion: "2025-11-25", capabilities: { tools: {} } });
  const { tools } = (await rpc("tools/list")) as { tools: { name: string }[] };
  expect(tools.map(({ name }) => name)).toEqual(["list_pets", "create_pet", "get_pet"]);
  const listed = await rpc("tools/call", { name: "list_pets", arguments: { limit: 1 } });
  expect(listed.isError).toBeUndefined();
  expect(Array.isArray((listed.structuredContent as { pets?: unknown }).pets)).toBe(true);
});

it("the sign-in Worker answers its metadata through the API (in a rollout, its new version: the API hands the override on)", async () => {
  const response = await api("/.well-known/oauth-authorization-server", {
    key: null,
    outsideContract: "OAuth's metadata, which RFC 8414 describes, not openapi.json",
  });
  expect(response.status).toBe(200);
  const metadata = (await response.json()) as { issuer: string; authorization_endpoint: string };
  expect(metadata.authorization_endpoint).toBe(`${metadata.issuer}/authorize`);
});
