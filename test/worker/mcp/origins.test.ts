import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { buildRequest } from "../../helpers/api-client";
import { type CallOptions, call, createApiKey, expectError, send } from "../../helpers/index";
import { HANDSHAKE_VERSION, MCP, postMcp } from "../../helpers/mcp-calls";

// /mcp and the browser: its Origin guard against DNS rebinding, and CORS that agrees with it.

let key: string;
beforeAll(async () => {
  key = await createApiKey("mcp origins");
});
const post = (body: unknown, options: CallOptions = {}) => postMcp(key, body, options);

describe("/mcp from a browser", () => {
  const allowing = { ...env, ALLOWED_ORIGINS: "https://app.example" };
  const preflight = (origin: string, bindings: Cloudflare.Env = allowing) =>
    call("/mcp", {
      method: "OPTIONS",
      bindings,
      outsideContract: MCP,
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type,mcp-protocol-version",
      },
    });

  it("answers the preflight of an origin ALLOWED_ORIGINS names, and its answers carry CORS headers", async () => {
    const allowed = await preflight("https://app.example");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
    expect(allowed.headers.get("Access-Control-Allow-Methods")).toBe("POST");
    expect(allowed.headers.get("Access-Control-Allow-Headers")).toBe(
      "Authorization,Content-Type,MCP-Protocol-Version,Mcp-Method,Mcp-Name,x-d1-bookmark,X-Request-Id",
    );
    const answer = await post(
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { bindings: allowing, headers: { Origin: "https://app.example" } },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
    expect(answer.headers.get("Access-Control-Expose-Headers")).toContain("WWW-Authenticate");
  });

  it("gives an origin it does not name no CORS headers, and its request the 403; '*' names none", async () => {
    for (const [origin, bindings] of [
      ["https://evil.example", allowing],
      ["https://app.example", env],
    ] as const) {
      expect((await preflight(origin, bindings)).headers.has("Access-Control-Allow-Origin")).toBe(false);
      const refused = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { bindings, headers: { Origin: origin } });
      await expectError(refused, 403, "forbidden");
      expect(refused.headers.has("Access-Control-Allow-Origin")).toBe(false);
    }
  });

  // The conformance suite's DNS-rebinding scenario: a loopback server's own origin passes; a
  // rebinding page's origin, though its Host repeats it, does not.
  it.each([
    ["http://localhost:8787", 200],
    ["http://127.0.0.1:8787", 200],
    ["http://[::1]:8787", 200],
    ["http://evil.example.com", 403],
    ["https://petstore.test", 403],
  ])("takes a request to %s/mcp with its own Origin with %i", async (origin, status) => {
    const request = buildRequest(`${origin}/mcp`, {
      key,
      method: "POST",
      json: { jsonrpc: "2.0", id: 1, method: "ping" },
      headers: { Origin: origin, "MCP-Protocol-Version": HANDSHAKE_VERSION },
    });
    expect((await send(request, { outsideContract: MCP })).status).toBe(status);
  });
});
