import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashApiKey } from "../../../src/keys/api-key";
import { BASE_URL, createApiKey, expectError, send } from "../../helpers/index";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { MCP, postMcp, toolCall } from "../../helpers/mcp-calls";
import { accessTokenFor } from "../../helpers/sign-in";

// An access token at /mcp, with the sign-in Worker (src/auth-server/, built and bound as AUTH
// by vitest.config.ts) on the suite's real KV: it stands for the key it was signed in with,
// which the API re-checks as it re-checks every key. While the sign-in Worker fails:
// ./token-faults.test.ts. The whole flow over HTTP: test/e2e/local/oauth.test.ts.

/** docs/keys.md: how long an isolate trusts a key's record; a token's key alike. */
const KNOWN_KEY_TTL_MS = 60_000;

afterEach(() => vi.useRealTimers());

/** A tools/call on 2025-11-25's terms, with `bearer` as the credential. */
const callTool = (bearer: string, name: string, args: Record<string, unknown>, bindings?: Cloudflare.Env) =>
  postMcp(bearer, toolCall(name, args), { bindings });

const listPets = (bearer: string, bindings?: Cloudflare.Env) => callTool(bearer, "list_pets", {}, bindings);

/** create_pet through /mcp with `bearer`: refused as a tool error, 403, for want of the write scope. */
const expectCreateRefused = async (bearer: string) => {
  const create = await callTool(bearer, "create_pet", { name: "Unwritten", categoryId: 1 });
  await expectError(create, 403, "forbidden");
  // MCP's scope challenge: sign in again for every scope, as the 401 says.
  expect(create.headers.get("WWW-Authenticate")).toMatch(
    /^Bearer realm="petstore", error="insufficient_scope", scope="read write", resource_metadata="[^"]+"$/,
  );
};

describe("an access token at /mcp", () => {
  it("is counted against the address the first time only: once verified, this isolate knows it", async () => {
    const token = await accessTokenFor(await createApiKey("counted once"));
    let counted = 0;
    const counting = {
      ...env,
      AUTH_FAILURE_LIMITER: {
        limit: (options: RateLimitOptions) => {
          counted++;
          return env.AUTH_FAILURE_LIMITER.limit(options);
        },
      },
    } as Cloudflare.Env;
    expect((await listPets(token, counting)).status).toBe(200);
    expect((await listPets(token, counting)).status).toBe(200);
    expect(counted).toBe(1);
  });

  it("stands for its key: refused once KNOWN_KEY_TTL_MS has passed since the key's revocation, as the key itself is", async () => {
    const key = await createApiKey("signed in");
    const token = await accessTokenFor(key);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect((await listPets(token)).status).toBe(200);
    await env.API_KEYS.delete(await hashApiKey(key));
    vi.advanceTimersByTime(KNOWN_KEY_TTL_MS - 1000);
    expect((await listPets(token)).status).toBe(200);
    vi.advanceTimersByTime(1000);
    const refused = await listPets(token);
    await expectError(refused, 401, "unauthorized");
    expect(refused.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
  });

  it("gives the tools the token's scopes, not more of its key's: signed in for read, it lists but cannot create", async () => {
    const token = await accessTokenFor(await createApiKey("reads through its token"));
    const listed = (await (await listPets(token)).json()) as { result: { isError?: boolean } };
    expect(listed.result.isError).toBeUndefined();
    await expectCreateRefused(token);
  });

  it("gives the tools no more than its key has now: a key made read-only after the sign-in cannot create", async () => {
    const key = await createApiKey("narrowed after signing in");
    const token = await accessTokenFor(key, "read write");
    const hash = await hashApiKey(key);
    const record = (await env.API_KEYS.get(hash, "json")) as Record<string, unknown>;
    await env.API_KEYS.put(hash, JSON.stringify({ ...record, scopes: ["read"] }));
    await expectCreateRefused(token);
  });

  it("ends when its key expires, from the instant on, as a rolled key's old one does at the overlap's end", async () => {
    const expiresAt = new Date(Date.now() + 10 * 60_000).toISOString();
    const token = await accessTokenFor(await createApiKey("rolled: the old key", { expiresAt }));
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(expiresAt) - 1 });
    expect((await listPets(token)).status).toBe(200);
    vi.setSystemTime(Date.parse(expiresAt));
    const { message } = await expectError(await listPets(token), 401, "unauthorized");
    expect(message).toBe(`The access token's API key expired at ${expiresAt}.`);
  });

  it("that the sign-in Worker does not know is 401 with RFC 6750's challenge and where to sign in", async () => {
    const refused = await listPets("user:grant:not-a-secret");
    const { message } = await expectError(refused, 401, "unauthorized");
    expect(message).toBe("The access token is not valid, or has expired; sign in again.");
    expect(refused.headers.get("WWW-Authenticate")).toBe(
      'Bearer realm="petstore", error="invalid_token", error_description="The access token is not valid", resource_metadata="https://petstore.test/.well-known/oauth-protected-resource/mcp", scope="read write"',
    );
  });

  it("counts each unknown token against the address, as an unknown key: the 61st of a minute is 429", async () => {
    // Asserted once the run is known to have stayed in one window (a run that crossed is run again).
    const { statuses, last } = await inOneLimiterWindow(async (run) => {
      const address = `198.51.100.${200 + run}`;
      const seen: number[] = [];
      let last: Response | undefined;
      for (let attempt = 0; attempt < 61; attempt++) {
        const response = await send(
          new Request(`${BASE_URL}/mcp`, {
            method: "POST",
            headers: {
              Authorization: "Bearer user:grant:guess",
              "CF-Connecting-IP": address,
              "Content-Type": "application/json",
            },
            body: "{}",
          }),
          { outsideContract: MCP },
        );
        seen.push(response.status);
        last = response;
      }
      return { statuses: seen, last: last as Response };
    });
    expect(statuses.slice(0, 60).every((status) => status === 401)).toBe(true);
    // The throttle's 429 is not a 401: it tells no one to sign in.
    expect(last.headers.get("WWW-Authenticate")).toBeNull();
    const { message } = await expectError(last, 429, "rate_limited");
    expect(message).toBe("Too many requests with unknown access tokens from this address; retry in 60 seconds.");
    expect(last.headers.get("Retry-After")).toBe("60");
  });
});
