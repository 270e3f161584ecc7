// Every /mcp answer the suite sees, held to the Model Context Protocol's official schemas:
// those the official SDK v2 validates against (@modelcontextprotocol/core 2.4.0), and, for a
// request of revision 2026-07-28, what that revision's schema.json requires beyond them (a
// resultType on every result, the caching hints of tools/list and server/discover, the data
// of an UnsupportedProtocolVersionError). A JSON-RPC answer is a response with the
// request's id (or none, when the request had none to read), an error code and message, or
// the result of its method; a notification's is 202 with no body; an HTTP error before any
// message is read (401, 403, 405, 413, 415, 429, and 400 for an MCP-Protocol-Version) has
// the API's Error body. A browser's preflight (OPTIONS) is CORS's, not MCP's: 204, no body.
import {
  CallToolResultSchema,
  DiscoverResultSchema,
  EmptyResultSchema,
  InitializeResultSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCResultResponseSchema,
  ListToolsResultSchema,
} from "@modelcontextprotocol/core";
import { expect } from "vitest";
import { expectError } from "./error-body";

const RESULTS = {
  initialize: InitializeResultSchema,
  ping: EmptyResultSchema,
  "tools/list": ListToolsResultSchema,
  "tools/call": CallToolResultSchema,
  "server/discover": DiscoverResultSchema,
} as Record<string, { safeParse: (value: unknown) => { success: boolean; error?: unknown } }>;

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const expectValid = (
  schema: { safeParse: (value: unknown) => { success: boolean; error?: unknown } },
  value: unknown,
) => {
  const result = schema.safeParse(value);
  expect(result.success, `not as MCP's schema states: ${String(result.error)}\n${JSON.stringify(value)}`).toBe(true);
};

/** Checks one answer of /mcp, given the method and the text of the request that got it. */
export const expectMcpConformance = async (method: string, requestText: string, response: Response) => {
  const text = await response.clone().text();
  if (method === "OPTIONS" && response.status === 204) {
    expect(text).toBe("");
    return;
  }
  if (response.status === 202) {
    expect(text).toBe("");
    return;
  }
  const body = parsed(text) as Record<string, unknown> | undefined;
  if (!body || !("jsonrpc" in body)) {
    expect(response.status).toBeGreaterThanOrEqual(400);
    await expectError(response.clone(), response.status, (body?.code as string) ?? "");
    return;
  }
  const request = parsed(requestText) as
    | { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } }
    | undefined;
  // A version of the handshake's era named in _meta is that era's request (src/mcp/versions.ts).
  const modern = request?.params?._meta?.["io.modelcontextprotocol/protocolVersion"] === "2026-07-28";
  const id = request?.id;
  const readableId = typeof id === "string" || Number.isSafeInteger(id) ? id : undefined;
  if ("error" in body) {
    expectValid(JSONRPCErrorResponseSchema, body);
    expect(body.id).toEqual(readableId);
    const { code, data } = body.error as { code: number; data?: { supported?: unknown; requested?: unknown } };
    if (code === -32022) {
      expect(response.status).toBe(400);
      expect(data).toEqual({ supported: expect.any(Array), requested: expect.any(String) });
    }
    return;
  }
  expect(response.status).toBe(200);
  expectValid(JSONRPCResultResponseSchema, body);
  expect(body.id).toEqual(readableId);
  const schema = RESULTS[String(request?.method)];
  expect(schema, `a result to a method this server does not answer: ${String(request?.method)}`).toBeDefined();
  if (schema) expectValid(schema, body.result);
  if (modern) {
    const result = body.result as Record<string, unknown>;
    expect(result.resultType).toBe("complete");
    expect(result._meta).toMatchObject({ "io.modelcontextprotocol/serverInfo": { name: expect.any(String) } });
    if (request?.method === "tools/list" || request?.method === "server/discover") {
      expect(Number.isSafeInteger(result.ttlMs) && (result.ttlMs as number) >= 0).toBe(true);
      expect(["public", "private"]).toContain(result.cacheScope);
    }
  }
};
