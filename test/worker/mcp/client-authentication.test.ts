import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, createApiKey, send } from "../../helpers/index";

// A confidential client at the token endpoint (src/auth-server/client-authentication.ts): HTTP
// Basic with its client_id repeated in the form, as Python's `mcp` client sends it, is one way
// of authenticating and gets its tokens; a second way beside Basic is still refused.

const REDIRECT_URI = "http://127.0.0.1:9/callback";
const SIGN_IN = "OAuth's endpoints and pages are not in openapi.json";

const fetchApi = (path: string, init?: RequestInit) =>
  send(new Request(`${BASE_URL}${path}`, init), { outsideContract: SIGN_IN });
const base64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
const formPost = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  redirect: "manual",
  headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields),
});

let client: { client_id: string; client_secret: string };
let basic: { Authorization: string };
let key: string;
beforeAll(async () => {
  key = await createApiKey("a confidential host's key");
  const registered = await fetchApi("/oauth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "Python host",
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: "client_secret_basic",
    }),
  });
  expect(registered.status).toBe(201);
  client = (await registered.json()) as typeof client;
  basic = { Authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}` };
});

/** A code for the confidential client, signed in with the key, and its PKCE verifier. */
const codeFor = async () => {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "read",
    resource: `${BASE_URL}/mcp`,
  });
  const page = await fetchApi(`/authorize?${query}`);
  const handle = /name="handle" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const signedIn = await fetchApi("/authorize", formPost({ handle, key, decision: "allow" }, { Cookie: cookie }));
  const code = new URL(signedIn.headers.get("Location") ?? "").searchParams.get("code") ?? "";
  return { code, verifier };
};
const exchange = async (extra: Record<string, string>) => {
  const { code, verifier } = await codeFor();
  const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
  return fetchApi("/oauth/token", formPost({ ...fields, ...extra }, basic));
};

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
    for (const extra of [
      { client_id: "someone-else" },
      { client_id: client.client_id, client_secret: client.client_secret },
    ]) {
      const refused = await exchange(extra);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_request" });
    }
  });
});
