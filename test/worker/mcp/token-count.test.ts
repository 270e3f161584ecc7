import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE_URL, expectError, send } from "../../helpers/index";
import { MCP } from "../../helpers/mcp-calls";

// /mcp's door to an access token it does not know (src/mcp/key-or-token-auth.ts): counted against the
// client's address before anything is asked of the sign-in Worker, and one longer than any
// token that Worker issues is refused without asking it at all.

/** docs/mcp.md: longer than any access token the sign-in Worker issues. */
const MAX_ACCESS_TOKEN_LENGTH = 256;

/** A tools/list at /mcp with `token`, from an address of this test's own; what was done, in order. */
const withToken = async (token: string, address: string) => {
  const done: string[] = [];
  const auth = env.AUTH as unknown as { validateToken: (...args: unknown[]) => Promise<unknown> };
  const bindings = {
    ...env,
    AUTH_FAILURE_LIMITER: {
      limit: (options: RateLimitOptions) => {
        done.push("counted");
        return env.AUTH_FAILURE_LIMITER.limit(options);
      },
    },
    AUTH: {
      ...env.AUTH,
      validateToken: (...args: unknown[]) => {
        done.push("asked");
        return auth.validateToken(...args);
      },
    },
  };
  const response = await send(
    new Request(`${BASE_URL}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": address, "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
    { bindings: bindings as unknown as Cloudflare.Env, outsideContract: MCP },
  );
  await expectError(response, 401, "unauthorized");
  return done;
};

/** A token of `length` characters, shaped as the sign-in Worker's are (userId:grantId:secret). */
const tokenOf = (length: number) => `${"a".repeat(64)}:${"b".repeat(16)}:${"c".repeat(length - 82)}`;

describe("an access token /mcp does not know", () => {
  it("is counted against the address before the sign-in Worker is asked about it", async () => {
    expect(await withToken(tokenOf(114), "198.18.20.1")).toEqual(["counted", "asked"]);
  });

  it(`is counted and refused unasked when longer than ${MAX_ACCESS_TOKEN_LENGTH} characters, and asked about at ${MAX_ACCESS_TOKEN_LENGTH}`, async () => {
    expect(await withToken(tokenOf(MAX_ACCESS_TOKEN_LENGTH), "198.18.20.2")).toEqual(["counted", "asked"]);
    expect(await withToken(tokenOf(MAX_ACCESS_TOKEN_LENGTH + 1), "198.18.20.3")).toEqual(["counted"]);
    expect(await withToken(tokenOf(600), "198.18.20.4")).toEqual(["counted"]);
  });
});
