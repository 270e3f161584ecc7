import { describe, expect, it } from "vitest";
import { eraOf } from "../../../src/mcp/versions";

// Which protocol era a message speaks, and each refusal of one that does not agree with
// itself, word for word (docs/mcp.md, "Protocol versions"): the function itself, on messages
// and headers as a client sends them. Over HTTP: ./modern.test.ts and ./endpoint.test.ts.

const META = "io.modelcontextprotocol";
const modern = (method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 7,
  method,
  params: {
    ...params,
    _meta: { [`${META}/protocolVersion`]: "2026-07-28", [`${META}/clientCapabilities`]: {}, ...meta },
  },
});
const headersOf = (headers: Record<string, string>) => (name: string) => headers[name];
const base64 = (text: string) => `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}?=`;
const refusal = (code: number, message: string, data?: unknown) => ({
  refusal: { jsonrpc: "2.0", id: 7, error: { code, message, ...(data !== undefined && { data }) } },
});
const MISMATCH = -32020;
const SUPPORTED = ["2026-07-28", "2025-11-25", "2025-06-18"];

describe("a message without _meta's version", () => {
  it("is of the handshake's era with a version of that era, or with none when it opens the handshake", () => {
    const message = { jsonrpc: "2.0", id: 7, method: "tools/list" };
    expect(eraOf(message, headersOf({ "MCP-Protocol-Version": "2025-11-25" }))).toEqual({ modern: false });
    expect(eraOf(message, headersOf({ "MCP-Protocol-Version": "2025-06-18" }))).toEqual({ modern: false });
    const initialize = { jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "2025-11-25" } };
    expect(eraOf(initialize, headersOf({}))).toEqual({ modern: false });
  });

  it("is refused without MCP-Protocol-Version, unless it opens the handshake: 2025-03-26 is not spoken here", () => {
    const required = refusal(
      MISMATCH,
      "Header mismatch: MCP-Protocol-Version is required on every request but initialize.",
    );
    expect(eraOf({ jsonrpc: "2.0", id: 7, method: "tools/list" }, headersOf({}))).toEqual(required);
    expect(eraOf({ jsonrpc: "2.0", id: 7, method: "tools/call" }, headersOf({}))).toEqual(required);
    const { refusal: notified } = eraOf({ jsonrpc: "2.0", method: "notifications/initialized" }, headersOf({})) as {
      refusal: { error: unknown };
    };
    expect(notified.error).toEqual(required.refusal.error);
    // An initialize that names a version in _meta is no handshake's opening; nor is a message that is no object.
    expect(eraOf(modern("initialize"), headersOf({}))).toEqual(required);
    for (const message of [null, "initialize", ["initialize"]]) {
      expect(eraOf(message, headersOf({}))).toEqual({ refusal: { ...required.refusal, id: undefined } });
    }
  });

  it("is refused with the current revision's header (a required field missing), and with a version not spoken here", () => {
    const message = { jsonrpc: "2.0", id: 7, method: "tools/list" };
    expect(eraOf(message, headersOf({ "MCP-Protocol-Version": "2026-07-28" }))).toEqual(
      refusal(-32602, `_meta must hold ${META}/protocolVersion.`),
    );
    const long = `2099-${"9".repeat(100)}`;
    expect(eraOf(message, headersOf({ "MCP-Protocol-Version": long }))).toEqual(
      refusal(-32022, `Unsupported protocol version: this server speaks ${SUPPORTED.join(", ")}.`, {
        supported: SUPPORTED,
        requested: long.slice(0, 64),
      }),
    );
  });
});

describe("a message whose _meta names a version of the handshake's era", () => {
  const named = modern("tools/list", {}, { [`${META}/protocolVersion`]: "2025-11-25" });

  it("is of that era when its header repeats it, never 'unsupported'", () => {
    expect(eraOf(named, headersOf({ "MCP-Protocol-Version": "2025-11-25" }))).toEqual({ modern: false });
  });

  it("is refused when its header names another version", () => {
    expect(eraOf(named, headersOf({ "MCP-Protocol-Version": "2026-07-28" }))).toEqual(
      refusal(MISMATCH, "Header mismatch: MCP-Protocol-Version must repeat _meta's protocolVersion (2025-11-25)."),
    );
  });
});

describe("a message of 2026-07-28", () => {
  const call = modern("tools/call", { name: "list_pets" });
  const agreeing = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "list_pets" };

  it("is modern when its headers repeat the body, Mcp-Name also in the Base64 sentinel form", () => {
    expect(eraOf(call, headersOf(agreeing))).toEqual({ modern: true, version: "2026-07-28" });
    expect(eraOf(call, headersOf({ ...agreeing, "Mcp-Name": base64("list_pets") }))).toEqual({
      modern: true,
      version: "2026-07-28",
    });
    // A notification has no header but the version to repeat.
    const { id: _, ...notification } = modern("notifications/initialized");
    expect(eraOf(notification, headersOf({ "MCP-Protocol-Version": "2026-07-28" }))).toEqual({
      modern: true,
      version: "2026-07-28",
    });
  });

  it("is refused when a header does not repeat the body, each saying which", () => {
    const mismatch = (text: string) => refusal(MISMATCH, `Header mismatch: ${text}`);
    expect(eraOf(call, headersOf({ ...agreeing, "MCP-Protocol-Version": "2025-11-25" }))).toEqual(
      mismatch("MCP-Protocol-Version must repeat _meta's protocolVersion (2026-07-28)."),
    );
    expect(eraOf(call, headersOf({ ...agreeing, "Mcp-Method": "tools/list" }))).toEqual(
      mismatch("Mcp-Method must repeat the message's method."),
    );
    const name = mismatch("Mcp-Name must repeat the tool's name.");
    const { "Mcp-Name": _, ...unnamed } = agreeing;
    expect(eraOf(call, headersOf(unnamed))).toEqual(name);
    for (const sent of [
      "get_pet",
      `x${base64("list_pets")}`,
      `${base64("list_pets")}x`,
      // Not UTF-8, and a byte-order mark kept as a character: neither is the name.
      "=?base64?/w==?=",
      base64("\uFEFFlist_pets"),
    ]) {
      expect(eraOf(call, headersOf({ ...agreeing, "Mcp-Name": sent })), sent).toEqual(name);
    }
  });

  it("is refused when its version is not a string, is not spoken here, or lacks the client's capabilities", () => {
    const version = (value: unknown) => modern("tools/list", {}, { [`${META}/protocolVersion`]: value });
    const listing = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list" };
    expect(eraOf(version(20260728), headersOf(listing))).toEqual(
      refusal(-32602, `_meta's ${META}/protocolVersion must be a string.`),
    );
    const long = `2099-${"9".repeat(100)}`;
    expect(eraOf(version(long), headersOf({ ...listing, "MCP-Protocol-Version": "2026-07-28" }))).toEqual(
      refusal(
        MISMATCH,
        `Header mismatch: MCP-Protocol-Version must repeat _meta's protocolVersion (${long.slice(0, 64)}).`,
      ),
    );
    expect(eraOf(version(long), headersOf({ ...listing, "MCP-Protocol-Version": long }))).toEqual(
      refusal(-32022, `Unsupported protocol version: this server speaks ${SUPPORTED.join(", ")}.`, {
        supported: SUPPORTED,
        requested: long.slice(0, 64),
      }),
    );
    const incapable = modern("tools/list", {}, { [`${META}/clientCapabilities`]: "all" });
    expect(eraOf(incapable, headersOf(listing))).toEqual(
      refusal(-32602, `_meta must hold ${META}/clientCapabilities.`),
    );
  });
});
