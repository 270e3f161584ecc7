import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuthEnv } from "../../../src/auth-server/env";
import { isStepUp, noteStepUp } from "../../../src/auth-server/step-up";
import { createApiKey } from "../../helpers/index";
import { postMcp, toolCall } from "../../helpers/mcp-calls";
import { fetchApi, formPost, registerClient, tokensFor } from "../../helpers/sign-in";

// A step-up (src/auth-server/step-up.ts): a token refused a tool for a scope its grant lacks
// gets no wider token by refreshing (RFC 6749 section 6), and the refresh that comes after the
// refusal is refused with invalid_grant, which sends a host to sign in again; a refresh that
// asks for no more than its grant, and none after a refusal, is answered as before.

/** docs/mcp.md: a refresh within five minutes of a refusal for scope is taken as a step-up. */
const STEP_UP_WINDOW_MS = 300_000;

let key: string;
let clientId: string;
beforeAll(async () => {
  key = await createApiKey("a host that steps up");
  ({ client_id: clientId } = await registerClient("Stepping host", "none"));
});

/** A host's tokens, signed in with the key for `scope`. */
const signedIn = (scope: string) => tokensFor(clientId, key, scope);
const refresh = (refreshToken: string, scope?: string) =>
  fetchApi(
    "/oauth/token",
    formPost({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: clientId,
      ...(scope && { scope }),
    }),
  );
const create = (token: string) => postMcp(token, toolCall("create_pet", { name: "Stepped", categoryId: 1 }));

describe("a refresh", () => {
  it("after a tool refused its token for scope gets no token, invalid_grant; a new sign-in for more does", async () => {
    const read = await signedIn("read");
    const refused = await create(read.access_token);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope"');
    const stepped = await refresh(read.refresh_token);
    expect(stepped.status).toBe(400);
    expect(await stepped.json()).toMatchObject({ error: "invalid_grant" });
    const wider = await signedIn("read write");
    expect(wider.scope).toBe("read write");
    expect((await create(wider.access_token)).status).toBe(200);
  });

  it("that names a scope its grant lacks gets no token, invalid_grant; one that names no more is answered", async () => {
    const read = await signedIn("read");
    const asked = await refresh(read.refresh_token, "read write");
    expect(asked.status).toBe(400);
    expect(await asked.json()).toMatchObject({ error: "invalid_grant" });
    const same = await refresh(read.refresh_token, "read");
    expect(same.status).toBe(200);
    const { refresh_token: next } = (await same.json()) as { refresh_token: string };
    expect((await refresh(next)).status).toBe(200);
  });
});

describe("the step-up window", () => {
  const store = { OAUTH_KV: (env as Cloudflare.Env & { TEST_OAUTH_KV: KVNamespace }).TEST_OAUTH_KV } as AuthEnv;

  it("takes a refresh as a step-up for five minutes after the refusal, and not from then on", async () => {
    const grantId = `grant-${crypto.randomUUID()}`;
    const noted = Date.parse("2026-12-01T12:00:00Z");
    expect(await isStepUp(store, grantId, ["read"], null, noted)).toBe(false);
    await noteStepUp(store, `user:${grantId}:secret`, noted);
    expect(await isStepUp(store, grantId, ["read"], null, noted + STEP_UP_WINDOW_MS - 1)).toBe(true);
    expect(await isStepUp(store, grantId, ["read"], null, noted + STEP_UP_WINDOW_MS)).toBe(false);
    expect(await isStepUp(store, grantId, ["read"], "read write", noted + STEP_UP_WINDOW_MS)).toBe(true);
    expect(await isStepUp(store, grantId, ["read", "write"], "write", noted + STEP_UP_WINDOW_MS)).toBe(false);
  });
});
