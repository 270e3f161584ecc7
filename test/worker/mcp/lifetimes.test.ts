import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AuthEnv } from "../../../src/auth-server/env";
import type * as Lifetimes from "../../../src/auth-server/lifetimes";
import { hashApiKey } from "../../../src/keys/api-key";
import { createApiKey } from "../../helpers/index";

// How long what the sign-in Worker issues lives (docs/mcp.md, "How long"), as it decides at a
// code exchange and a refresh, on a clock held still: a key's expiry is exact to the
// millisecond here, where over HTTP (test/e2e/local/oauth-refusals.test.ts) it races the clock.

/** docs/mcp.md: an access token lives 15 minutes. */
const ACCESS_TOKEN_S = 900;
/** docs/mcp.md: a refresh token lives 30 days. */
const REFRESH_TOKEN_S = 2_592_000;
/** docs/mcp.md: at least a minute, KV's shortest lifetime; a key ending sooner gives no refresh token. */
const SHORTEST_S = 60;

const NOW = Date.parse("2026-11-28T12:00:00.000Z");

let boundByKey: typeof Lifetimes.boundByKey;
beforeAll(async () => {
  // The library says, as it loads, that it fetches no metadata document here: not printed.
  const quiet = (["log", "warn"] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => {}));
  try {
    ({ boundByKey } = await import("../../../src/auth-server/lifetimes"));
  } finally {
    for (const spy of quiet) spy.mockRestore();
  }
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

/** The lifetimes for a key that expires `msFromNow` after NOW, at a code exchange or a refresh. */
const lifetimesFor = async (msFromNow: number, grantType = "authorization_code") => {
  const key = await createApiKey("lifetimes", { expiresAt: new Date(NOW + msFromNow).toISOString() });
  const props = { keyHash: await hashApiKey(key) };
  return boundByKey({ env: env as unknown as AuthEnv, props, grantType });
};

describe("the lifetimes of a grant's tokens", () => {
  it("are the server's own, 15 minutes and 30 days, for a key that never expires", async () => {
    const key = await createApiKey("never expires");
    const props = { keyHash: await hashApiKey(key) };
    expect(
      await boundByKey({ env: env as unknown as AuthEnv, props, grantType: "authorization_code" }),
    ).toBeUndefined();
  });

  it("are 15 minutes and 30 days while the key lives longer, from both sides", async () => {
    const day = 86_400_000;
    expect(await lifetimesFor(40 * day)).toEqual({ accessTokenTTL: ACCESS_TOKEN_S, refreshTokenTTL: REFRESH_TOKEN_S });
    expect(await lifetimesFor(REFRESH_TOKEN_S * 1000 + 1000)).toEqual({
      accessTokenTTL: ACCESS_TOKEN_S,
      refreshTokenTTL: REFRESH_TOKEN_S,
    });
    expect(await lifetimesFor(REFRESH_TOKEN_S * 1000 - 1000)).toEqual({
      accessTokenTTL: ACCESS_TOKEN_S,
      refreshTokenTTL: REFRESH_TOKEN_S - 1,
    });
    expect(await lifetimesFor(ACCESS_TOKEN_S * 1000 + 1000)).toEqual({
      accessTokenTTL: ACCESS_TOKEN_S,
      refreshTokenTTL: ACCESS_TOKEN_S + 1,
    });
  });

  it("end with the key when it ends sooner, in whole seconds", async () => {
    expect(await lifetimesFor(ACCESS_TOKEN_S * 1000 - 1000)).toEqual({
      accessTokenTTL: ACCESS_TOKEN_S - 1,
      refreshTokenTTL: ACCESS_TOKEN_S - 1,
    });
    expect(await lifetimesFor(600_500)).toEqual({ accessTokenTTL: 600, refreshTokenTTL: 600 });
  });

  it("give a key that ends within a minute a minute's access token and no refresh token", async () => {
    expect(await lifetimesFor(SHORTEST_S * 1000)).toEqual({ accessTokenTTL: SHORTEST_S, refreshTokenTTL: SHORTEST_S });
    expect(await lifetimesFor(SHORTEST_S * 1000 - 1)).toEqual({ accessTokenTTL: SHORTEST_S, refreshTokenTTL: 0 });
    expect(await lifetimesFor(30_000)).toEqual({ accessTokenTTL: SHORTEST_S, refreshTokenTTL: 0 });
    expect(await lifetimesFor(SHORTEST_S * 1000 + 1000)).toEqual({
      accessTokenTTL: SHORTEST_S + 1,
      refreshTokenTTL: SHORTEST_S + 1,
    });
  });

  it("at a refresh, bound the access token only: the refresh token keeps its own end", async () => {
    expect(await lifetimesFor(600_000, "refresh_token")).toEqual({ accessTokenTTL: 600 });
    expect(await lifetimesFor(30_000, "refresh_token")).toEqual({ accessTokenTTL: SHORTEST_S });
  });

  it("are none for a key that has expired: the grant ends", async () => {
    await expect(lifetimesFor(0)).rejects.toMatchObject({ code: "invalid_grant" });
    await expect(lifetimesFor(-1)).rejects.toMatchObject({ code: "invalid_grant" });
    expect(await lifetimesFor(1)).toEqual({ accessTokenTTL: SHORTEST_S, refreshTokenTTL: 0 });
  });
});
