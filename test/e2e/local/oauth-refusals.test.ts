import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey } from "../../../src/keys/api-key";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { type Harness, startHarness } from "../helpers/harness";
import { freshAddress } from "../helpers/oauth-host";
import {
  type Authorization,
  authorizeUrl,
  exchangeCode,
  listPetsWith,
  openSignInPage,
  pkce,
  postSignInForm,
  registerClient,
  signInOverHttp,
  tokenRequest,
} from "../helpers/sign-in-over-http";

// Each way a sign-in or a token is refused, over real HTTP against both Workers: the page
// driven as a browser without script would, with fetch. The whole flow, with the official
// client and Chromium, is in oauth.test.ts.

let api: Harness;
beforeAll(async () => {
  // The access log on: no line of it may hold a key that was signed in with.
  api = await startHarness({ vars: { ACCESS_LOG: "json" } });
});
afterAll(() => api?.close());

/** A callback that nobody serves: a sign-in's redirect is read here, never followed. */
const REDIRECT_URI = "http://127.0.0.1:9/callback";

/** A registered client and a PKCE pair, ready to sign in with `scope`. */
const newAuthorization = async (scope?: string) => {
  const { verifier, challenge } = pkce();
  const clientId = await registerClient(api.origin, REDIRECT_URI);
  return { authorization: { clientId, redirectUri: REDIRECT_URI, challenge, scope } as Authorization, verifier };
};

/** Signs in with `key` and exchanges the code: the token response. */
const tokensFor = async (key: string, scope?: string) => {
  const { authorization, verifier } = await newAuthorization(scope);
  const { answer } = await signInOverHttp(api.origin, authorization, key);
  expect(answer?.status).toBe(302);
  const exchanged = await exchangeCode(api.origin, answer?.headers.get("Location") ?? "", authorization, verifier);
  expect(exchanged.status).toBe(200);
  return (await exchanged.json()) as { access_token: string; refresh_token: string; scope: string };
};

/**
 * Where the page of a refused request links back to (the app's redirect URI with the error):
 * a page, 400, never a redirect before the person acts (RFC 9700 section 4.11.2).
 */
const backLink = async (refused: Response) => {
  expect(refused.status).toBe(400);
  expect(refused.headers.get("Location")).toBeNull();
  const html = await refused.text();
  expect(html).not.toContain("<form");
  const href = /<a id="back" href="([^"]+)">/.exec(html)?.[1] ?? "";
  return new URL(href.replaceAll("&amp;", "&"));
};

/** The grants that KV holds for `key`, found as key:grants finds them (src/auth-server/grant-index.ts): what a sign-in stored. */
const grantsOf = async (key: string) => {
  const store = await api.store("OAUTH_KV");
  const indexPrefix = `key-grants:${await hashApiKey(key)}:`;
  const grants: { name: string }[] = [];
  for (const { name } of (await store.list({ prefix: indexPrefix })).keys) {
    grants.push(...(await store.list({ prefix: `grant:${name.slice(indexPrefix.length)}:` })).keys);
  }
  return grants;
};

describe("the sign-in page", () => {
  it("cannot be framed, and puts the key in no URL: the form posts it", async () => {
    const { authorization } = await newAuthorization("read");
    const page = await fetch(authorizeUrl(api.origin, authorization));
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("X-Frame-Options")).toBe("DENY");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(await page.text()).toMatch(/<form method="post">[\s\S]*<input type="password" name="key"/);
  });

  it("refuses a form posted without the cookie of the browser that opened it (cross-site forgery)", async () => {
    const key = await api.issueKey({ label: "forged form" });
    const { authorization } = await newAuthorization("read");
    const { handle = "" } = await openSignInPage(api.origin, authorization);
    const forged = await postSignInForm(api.origin, { handle, key, decision: "allow" });
    expect(forged.status).toBe(400);
    expect(forged.headers.get("Location")).toBeNull();
    expect(await grantsOf(key)).toEqual([]);
  });

  it("takes its form once: posted again, the same handle and cookie are refused, granting nothing more", async () => {
    const key = await api.issueKey({ label: "form posted twice" });
    const { authorization } = await newAuthorization("read");
    const { handle = "", cookie } = await openSignInPage(api.origin, authorization);
    const post = () => postSignInForm(api.origin, { handle, key, decision: "allow" }, { Cookie: cookie });
    expect((await post()).status).toBe(302);
    const again = await post();
    expect(again.status).toBe(400);
    expect(again.headers.get("Location")).toBeNull();
    expect(await grantsOf(key)).toHaveLength(1);
  });

  it("shows the page again for a key that is not valid, and sends a denial back to the app with iss", async () => {
    const { authorization } = await newAuthorization("read");
    const { answer } = await signInOverHttp(api.origin, authorization, generateApiKey("development"));
    expect(answer?.status).toBe(401);
    const again = (await answer?.text()) ?? "";
    expect(again).toContain("That is not a valid API key.");
    expect(again).toMatch(/name="handle" value="[^"]+"/);
    const { handle = "", cookie } = await openSignInPage(api.origin, authorization);
    const denied = await postSignInForm(api.origin, { handle, decision: "deny" }, { Cookie: cookie });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get("Location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: "access_denied",
      state: "e2e-state",
      iss: api.origin,
    });
  });

  it("says, before granting anything, that a read-only key asked for read and write may do read only; allowed again, grants read", async () => {
    const readOnly = await api.issueKey({ label: "read only", scopes: ["read"] });
    const { authorization, verifier } = await newAuthorization("read write");
    const { html } = await openSignInPage(api.origin, authorization);
    expect(html).toContain('<strong id="scopes">read, write</strong>');
    expect(html).toContain("no more than your key may do");
    const { answer: told } = await signInOverHttp(api.origin, authorization, readOnly);
    expect(told?.status).toBe(200);
    const page = await told?.text();
    expect(page).toContain('id="narrower"');
    expect(page).toContain('name="narrower" value="read"');
    expect(await grantsOf(readOnly)).toEqual([]);
    // The person allows the fewer scope, with the key again, on the form the page gave.
    const handle = /name="handle" value="([^"]+)"/.exec(page ?? "")?.[1] ?? "";
    const cookie = (told?.headers.getSetCookie() ?? []).map((line) => line.split(";")[0]).join("; ");
    const fields = { handle, key: readOnly, decision: "allow", narrower: "read" };
    const allowed = await postSignInForm(api.origin, fields, { Cookie: cookie, Origin: api.origin });
    expect(allowed.status).toBe(302);
    const exchanged = await exchangeCode(api.origin, allowed.headers.get("Location") ?? "", authorization, verifier);
    const tokens = (await exchanged.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe("read");
    expect((await listPetsWith(api.origin, tokens.access_token)).status).toBe(200);
  });

  it("refuses a key that may do none of what is asked, granting nothing", async () => {
    const writeOnly = await api.issueKey({ label: "write only", scopes: ["write"] });
    const { authorization } = await newAuthorization("read");
    const { answer } = await signInOverHttp(api.origin, authorization, writeOnly);
    expect(answer?.status).toBe(403);
    expect(answer?.headers.get("Location")).toBeNull();
    expect(await answer?.text()).toContain("That API key does not have the &#39;read&#39; scope this app asks for");
    expect(await grantsOf(writeOnly)).toEqual([]);
  });

  it("refuses a scope this API does not have, showing no form: the page links back to the app with invalid_scope", async () => {
    for (const scope of ["READ", "read-only", "read\u200b", "read admin"]) {
      const { authorization } = await newAuthorization(scope);
      const page = await fetch(authorizeUrl(api.origin, authorization), {
        redirect: "manual",
        headers: freshAddress(),
      });
      const back = await backLink(page);
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
      expect(back.searchParams.get("error"), scope).toBe("invalid_scope");
      expect(back.searchParams.get("error_description")).toMatch(
        /^Unknown scope '.+': this server grants read and write\.$/,
      );
      expect(back.searchParams.get("state")).toBe("e2e-state");
      expect(back.searchParams.get("iss")).toBe(api.origin);
    }
  });

  it("gives tokens that do not say which key they came from: two apps signed in with one key cannot tell", async () => {
    const key = await api.issueKey({ label: "two apps" });
    const first = await tokensFor(key, "read");
    const second = await tokensFor(key, "read");
    const hash = await hashApiKey(key);
    const prefixes = [first.access_token, first.refresh_token, second.access_token, second.refresh_token].map(
      (token) => token.split(":")[0],
    );
    expect(prefixes).not.toContain(hash);
    expect(prefixes[0]).not.toBe(prefixes[2]);
    expect(await grantsOf(key)).toHaveLength(2);
  });

  it("takes offline_access as asking for nothing (a refresh token is always given), and no scope as the key's", async () => {
    const key = await api.issueKey({ label: "offline access" });
    const { authorization } = await newAuthorization("offline_access read");
    expect((await openSignInPage(api.origin, authorization)).html).toContain('<strong id="scopes">read</strong>');
    const refreshed = await tokensFor(key, "offline_access read");
    expect(refreshed.scope).toBe("read");
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    const { authorization: unscoped } = await newAuthorization();
    expect((await openSignInPage(api.origin, unscoped)).html).toContain(
      '<strong id="scopes">whatever your key may do</strong>',
    );
    expect((await tokensFor(key)).scope).toBe("read write");
  });

  it("gives a token the scopes asked for, not its key's: a key that may write, signed in for read, cannot", async () => {
    const tokens = await tokensFor(await api.issueKey({ label: "reads through its token" }), "read");
    expect(tokens.scope).toBe("read");
    const create = await fetch(`${api.origin}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${tokens.access_token}`,
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "create_pet", arguments: { name: "Unwritten", categoryId: 1 } },
      }),
    });
    expect(create.status).toBe(403);
    expect(await create.json()).toMatchObject({ code: "forbidden", status: 403 });
    expect(create.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope", scope="read write"');
  });

  it("never redirects to a redirect URI the app did not register", async () => {
    const { authorization } = await newAuthorization("read");
    for (const redirectUri of [`${REDIRECT_URI}/other`, "http://127.0.0.1:9/callbac", "https://attacker.example/cb"]) {
      const page = await fetch(authorizeUrl(api.origin, { ...authorization, redirectUri }), {
        redirect: "manual",
        headers: freshAddress(),
      });
      expect(page.status, redirectUri).toBe(400);
      expect(page.headers.get("Location"), redirectUri).toBeNull();
      expect(await page.text()).toContain("Sign-in failed");
    }
  });

  it("takes PKCE with S256 only: a plain challenge's page links back to the app with invalid_request", async () => {
    const { authorization } = await newAuthorization("read");
    const url = new URL(authorizeUrl(api.origin, authorization));
    url.searchParams.set("code_challenge_method", "plain");
    const back = await backLink(await fetch(url, { redirect: "manual", headers: freshAddress() }));
    expect(back.searchParams.get("error")).toBe("invalid_request");
  });

  it("gives a resource other than this host's /mcp a page linking back to the app with invalid_target", async () => {
    const { authorization } = await newAuthorization("read");
    const url = authorizeUrl(api.origin, { ...authorization, resource: "https://other.example/mcp" });
    const back = await backLink(await fetch(url, { redirect: "manual", headers: freshAddress() }));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("invalid_target");
    expect(back.searchParams.get("iss")).toBe(api.origin);
  });

  it("throttles failed sign-ins as unknown keys are: 60 a minute from an address, the page's opening included, on the same count", async () => {
    const { authorization } = await newAuthorization("read");
    const { statuses, refused, unknownKey } = await inOneLimiterWindow(async () => {
      const address = `198.19.${crypto.getRandomValues(new Uint8Array(1))[0]}.${crypto.getRandomValues(new Uint8Array(1))[0]}`;
      const from = { "CF-Connecting-IP": address };
      const page = await fetch(authorizeUrl(api.origin, authorization), { headers: from });
      let html = await page.text();
      let cookie = page.headers.getSetCookie().map((line) => line.split(";")[0]);
      const statuses: number[] = [];
      // The page's opening counted one: 59 keys are tried, the 60th is refused.
      for (let attempt = 0; attempt < 60; attempt++) {
        const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "";
        const fields = { handle, key: generateApiKey("development"), decision: "allow" };
        const answer = await postSignInForm(api.origin, fields, { ...from, Cookie: cookie.join("; ") });
        statuses.push(answer.status);
        html = await answer.text();
        cookie = [...cookie, ...answer.headers.getSetCookie().map((line) => line.split(";")[0])];
      }
      const unknownKey = await fetch(`${api.origin}/v1/pets`, {
        headers: { ...from, Authorization: `Bearer ${generateApiKey("development")}` },
      });
      return { statuses, refused: html, unknownKey: unknownKey.status };
    });
    expect(statuses.slice(0, 59).every((status) => status === 401)).toBe(true);
    expect(statuses[59]).toBe(429);
    expect(refused).toContain("Too many sign-ins from this address; try again in a minute.");
    expect(unknownKey).toBe(429);
  });
});

describe("the lifetimes (docs/mcp.md)", () => {
  const day = 24 * 3600;

  it("give an access token 15 minutes and a grant 30 days, and no key signed in with in a log line", async () => {
    const key = await api.issueKey({ label: "lifetimes" });
    const { authorization, verifier } = await newAuthorization("read");
    const { answer } = await signInOverHttp(api.origin, authorization, key);
    const exchanged = await exchangeCode(api.origin, answer?.headers.get("Location") ?? "", authorization, verifier);
    const tokens = (await exchanged.json()) as { expires_in: number; refresh_token?: string };
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toBeTruthy();
    const store = await api.store("OAUTH_KV");
    const [grant] = await grantsOf(key);
    const record = (await store.get(grant?.name ?? "", "json")) as { createdAt: number; expiresAt: number };
    // The library stamps the two (in seconds) with a reading of the clock each: on a loaded
    // machine they may straddle a second, never two. 30 days, from both sides.
    const { createdAt, expiresAt } = record;
    expect(expiresAt).toBeGreaterThanOrEqual(createdAt + 30 * day);
    expect(expiresAt).toBeLessThanOrEqual(createdAt + 30 * day + 1);
    const logs = api.logs();
    expect(logs.some((line) => line.includes("/authorize"))).toBe(true);
    expect(logs.filter((line) => line.includes(key))).toEqual([]);
  });

  it("end no later than the key: its expiry caps both; a key ending within a minute gives a minute's access token and no refresh token", async () => {
    const now = Date.now();
    const inTwoHours = await api.issueKey({
      label: "two hours",
      expiresAt: new Date(now + 2 * 3600_000).toISOString(),
    });
    const capped = await tokensFor(inTwoHours, "read");
    expect((capped as unknown as { expires_in: number }).expires_in).toBe(900);
    const store = await api.store("OAUTH_KV");
    const [grant] = await grantsOf(inTwoHours);
    const record = (await store.get(grant?.name ?? "", "json")) as { expiresAt: number };
    expect(record.expiresAt * 1000).toBeLessThanOrEqual(now + 2 * 3600_000);
    expect(record.expiresAt * 1000).toBeGreaterThan(now + 2 * 3600_000 - 60_000);

    const inTenMinutes = await api.issueKey({ label: "ten minutes", expiresAt: new Date(now + 600_000).toISOString() });
    const short = (await tokensFor(inTenMinutes, "read")) as unknown as { expires_in: number };
    expect(short.expires_in).toBeLessThanOrEqual(600);
    expect(short.expires_in).toBeGreaterThan(540);

    const inHalfAMinute = await api.issueKey({
      label: "half a minute",
      expiresAt: new Date(now + 30_000).toISOString(),
    });
    const last = await tokensFor(inHalfAMinute, "read");
    expect(last.refresh_token).toBeUndefined();
  });
});

describe("the token endpoint and /mcp", () => {
  it("refuse a wrong PKCE verifier, and a code used twice", async () => {
    const { authorization } = await newAuthorization("read");
    const { answer } = await signInOverHttp(api.origin, authorization, api.apiKey);
    const location = answer?.headers.get("Location") ?? "";
    const wrong = await exchangeCode(api.origin, location, authorization, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });

    const { authorization: second, verifier: secondVerifier } = await newAuthorization("read");
    const signedIn = await signInOverHttp(api.origin, second, api.apiKey);
    const code = signedIn.answer?.headers.get("Location") ?? "";
    expect((await exchangeCode(api.origin, code, second, secondVerifier)).status).toBe(200);
    const reused = await exchangeCode(api.origin, code, second, secondVerifier);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses an expired access token, which a refresh replaces", async () => {
    const key = await api.issueKey({ label: "expiring tokens" });
    const tokens = await tokensFor(key, "read");
    expect((await listPetsWith(api.origin, tokens.access_token)).status).toBe(200);
    // Its record says it expired a second ago: what the clock would say 15 minutes on.
    const store = await api.store("OAUTH_KV");
    const [userId] = tokens.access_token.split(":");
    for (const { name } of (await store.list({ prefix: `token:${userId}:` })).keys) {
      const record = (await store.get(name, "json")) as { expiresAt: number };
      await store.put(name, JSON.stringify({ ...record, expiresAt: Math.floor(Date.now() / 1000) - 1 }));
    }
    const expired = await listPetsWith(api.origin, tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get("WWW-Authenticate")).toBe(
      `Bearer realm="petstore", error="invalid_token", error_description="The access token is not valid", resource_metadata="${api.origin}/.well-known/oauth-protected-resource/mcp", scope="read write"`,
    );
  });

  it("accepts a token only at the resource it was issued for: this host's /mcp, not /v1, nor another host", async () => {
    const tokens = await tokensFor(api.apiKey, "read");
    expect((await listPetsWith(api.origin, tokens.access_token)).status).toBe(200);
    const atV1 = await fetch(`${api.origin}/v1/pets`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(atV1.status).toBe(401);
    expect(((await atV1.json()) as { message: string }).message).toMatch(/^That is not an API key/);
    const { hostname, port } = new URL(api.origin);
    const otherHost = `http://${hostname === "localhost" ? "127.0.0.1" : "localhost"}:${port}`;
    expect((await listPetsWith(otherHost, tokens.access_token)).status).toBe(401);
  });

  it("refuses a refresh after the key's revocation, and the key's tokens once the API re-reads the key", async () => {
    const key = await api.issueKey({ label: "revoked" });
    const { authorization, verifier } = await newAuthorization("read");
    const { answer } = await signInOverHttp(api.origin, authorization, key);
    const exchanged = await exchangeCode(api.origin, answer?.headers.get("Location") ?? "", authorization, verifier);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
    await (await api.store("API_KEYS")).delete(await hashApiKey(key));
    const refresh = await tokenRequest(api.origin, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: authorization.clientId,
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
  });
});
