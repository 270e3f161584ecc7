import { expect } from "vitest";
import { type CallOptions, call } from "./index";

// Requests to POST /mcp for the suites in workerd, and what they read of the answers. Every
// answer is checked against MCP's official schemas on the way (./mcp-conformance.ts).

/** Why /mcp's answers are not checked against openapi.json. */
export const MCP = "MCP's JSON-RPC over HTTP, which the MCP specification describes, not openapi.json";

/** The version a client of the handshake's era repeats on every request after `initialize`. */
export const HANDSHAKE_VERSION = "2025-11-25";

/**
 * A POST /mcp with `key`, as a client of 2025-11-25 sends it (with MCP-Protocol-Version,
 * unless the headers give one): a body given as a string is sent as it is, anything else as JSON.
 */
export const postMcp = (key: string | null, body: unknown, options: CallOptions = {}) => {
  const headers = new Headers(options.headers);
  if (!headers.has("MCP-Protocol-Version")) headers.set("MCP-Protocol-Version", HANDSHAKE_VERSION);
  if (typeof body === "string" && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  return call("/mcp", {
    key,
    method: "POST",
    outsideContract: MCP,
    ...(typeof body === "string" ? { body } : { json: body }),
    ...options,
    headers,
  });
};

export const toolCall = (name: string, args: unknown, id: unknown = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/** The JSON-RPC error code of an answer, if it is an error. */
export const errorCodeOf = async (response: Response) =>
  ((await response.json()) as { error?: { code: number } }).error?.code;

type ToolResult = { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };

/** The tool's result, and the Error body it holds when it is an error. */
export const resultOf = async (response: Response) => {
  expect(response.status).toBe(200);
  const { result } = (await response.json()) as { result: ToolResult };
  return { result, error: result.isError ? JSON.parse(result.content[0]?.text ?? "") : undefined };
};

/** A tool error invalid_request, whose message matches. */
export const expectRefusedArgument = async (response: Response, message: RegExp) => {
  const { result, error } = await resultOf(response);
  expect(result.isError).toBe(true);
  expect(error).toMatchObject({ code: "invalid_request", status: 400, message: expect.stringMatching(message) });
};
