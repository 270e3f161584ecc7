import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../../src/keys/api-key";
import { BASE_URL, createApiKey } from "../../helpers/index";
import { fetchApi, formPost, REDIRECT_URI } from "../../helpers/sign-in";
import { type ConfidentialHost, confidentialHost } from "./confidential-host";

// The token endpoint's own rules (src/auth-server/token-request.ts): HTTP Basic with the
// client_id repeated in the form, as Python's `mcp` client sends it, is one way of
// authenticating and gets its tokens, a second way beside Basic is still refused. What ends a
// grant there: test/worker/mcp/grant-revocations.test.ts.

let client: ConfidentialHost["client"];
let basic: ConfidentialHost["basic"];
let codeFor: ConfidentialHost["codeFor"];
let exchange: ConfidentialHost["exchange"];
beforeAll(async () => {
  ({ client, basic, codeFor, exchange } = await confidentialHost());
});

describe("a confidential client with HTTP Basic", () => {
  it("gets its tokens with its client_id repeated in the form, and refreshes alike (Python's mcp client)", async () => {
    const exchanged = await exchange({ client_id: client.client_id });
    expect(exchanged.status).toBe(200);
    const { refresh_token: refreshToken } = (await exchanged.json()) as { refresh_token: string };
    const refreshed = await fetchApi(
      "/oauth/token",
      formPost({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: client.client_id }, basic),
    );
    expect(refreshed.status).toBe(200);
  });

  it("gets its tokens with Basic alone", async () => {
    expect((await exchange({})).status).toBe(200);
  });

  it("is refused another client_id beside Basic, and a client_secret beside it, as two ways of authenticating", async () => {
    const twoWays: Record<string, string>[] = [
      { client_id: "someone-else" },
      { client_id: client.client_id, client_secret: client.client_secret },
    ];
    for (const extra of twoWays) {
      const refused = await exchange(extra);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_request" });
    }
  });
});

describe("a confidential client's sign-in", () => {
  it("needs PKCE, as a public client's does: without a code_challenge the page links back with invalid_request", async () => {
    const query = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: "read",
      state: "no-pkce",
      resource: `${BASE_URL}/mcp`,
    });
    const page = await fetchApi(`/authorize?${query}`);
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).not.toContain("<form");
    const back = new URL((/<a id="back" href="([^"]+)">/.exec(html)?.[1] ?? "").replaceAll("&amp;", "&"));
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toBe("PKCE is required: send a code_challenge (S256).");
    expect(back.searchParams.get("state")).toBe("no-pkce");
  });
});

describe("a token request's size", () => {
  /** docs/mcp.md: the most bytes a token request may hold. */
  const MAX_TOKEN_REQUEST_BYTES = 16_384;
  const ofBytes = (bytes: number) => {
    const fields = `grant_type=refresh_token&refresh_token=a:b:c&padding=`;
    return fields + "x".repeat(bytes - fields.length);
  };

  it("is read to 16 KiB, and refused with 413 one byte over, before the library sees it", async () => {
    const post = (body: string) =>
      fetchApi("/oauth/token", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...basic },
        body,
      });
    expect(ofBytes(MAX_TOKEN_REQUEST_BYTES)).toHaveLength(MAX_TOKEN_REQUEST_BYTES);
    const read = await post(ofBytes(MAX_TOKEN_REQUEST_BYTES));
    expect(read.status).toBe(400);
    expect(await read.json()).toMatchObject({ error: "invalid_grant" });
    const refused = await post(ofBytes(MAX_TOKEN_REQUEST_BYTES + 1));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({
      error: "invalid_request",
      error_description: "A token request may be at most 16384 bytes.",
    });
  });
});

describe("a grant whose key has expired since the sign-in", () => {
  /** The key's record with an expiry a second past: what the clock will say when it comes. */
  const expire = async (expiring: string) => {
    const hash = await hashApiKey(expiring);
    const record = (await env.API_KEYS.get(hash, "json")) as Record<string, unknown>;
    await env.API_KEYS.put(hash, JSON.stringify({ ...record, expiresAt: new Date(Date.now() - 1000).toISOString() }));
  };
  const refused = {
    error: "invalid_grant",
    error_description: "The API key this access was granted with is no longer valid.",
  };

  it("gives no tokens for its code", async () => {
    const expiring = await createApiKey("expires before its code is exchanged");
    const { code, verifier } = await codeFor(expiring);
    await expire(expiring);
    const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    const exchanged = await fetchApi("/oauth/token", formPost(fields, basic));
    expect(exchanged.status).toBe(400);
    expect(await exchanged.json()).toEqual(refused);
  });

  it("refreshes no more", async () => {
    const expiring = await createApiKey("expires before its grant is refreshed");
    const exchanged = await exchange({}, expiring);
    expect(exchanged.status).toBe(200);
    const { refresh_token: refreshToken } = (await exchanged.json()) as { refresh_token: string };
    await expire(expiring);
    const refreshed = await fetchApi(
      "/oauth/token",
      formPost({ grant_type: "refresh_token", refresh_token: refreshToken }, basic),
    );
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toEqual(refused);
  });
});
