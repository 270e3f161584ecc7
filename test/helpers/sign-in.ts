import { expect } from "vitest";
import { BASE_URL, send } from "./index";

// What the workerd suites that sign in through /authorize and /oauth/* share: a request to
// the API's host (which hands them to the sign-in Worker), a form posted as a browser posts
// it, a PKCE pair, and a token got as a host gets one. Over real HTTP: test/e2e/helpers/sign-in-over-http.ts.

/** A callback that nobody serves: a sign-in's redirect is read, never followed. */
export const REDIRECT_URI = "http://127.0.0.1:9/callback";

/** Why OAuth's answers are not checked against openapi.json. */
export const SIGN_IN = "OAuth's endpoints and pages are not in openapi.json";

/** A request to the API's host, for a sign-in path. */
export const fetchApi = (path: string, init?: RequestInit) =>
  send(new Request(`${BASE_URL}${path}`, init), { outsideContract: SIGN_IN });

const base64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");

/** A PKCE verifier and its S256 challenge. */
export const pkcePair = async () => {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge };
};

/** A form posted as a browser posts it, its answer not followed. */
export const formPost = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  redirect: "manual",
  headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields),
});

/** The query of an authorization request for `clientId`, with a PKCE challenge, for this host's /mcp. */
export const authorizeQuery = (clientId: string, challenge: string, scope = "read", redirectUri = REDIRECT_URI) =>
  new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope,
    resource: `${BASE_URL}/mcp`,
  });

/** Registers an app (RFC 7591) named `name`, with the redirect URI above: its registration as answered. */
export const registerClient = async (name: string, tokenEndpointAuthMethod: "none" | "client_secret_basic") => {
  const registered = await fetchApi("/oauth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: tokenEndpointAuthMethod,
    }),
  });
  if (registered.status !== 201) throw new Error(`registration: ${registered.status} ${await registered.text()}`);
  return (await registered.json()) as { client_id: string; client_secret?: string };
};

/** What a sign-in page says went wrong, as the person reads it. */
export const problemOf = (html: string) => /<p class="problem" role="alert">([^<]*)<\/p>/.exec(html)?.[1];

/** The form on a sign-in page: its handle (each works once) and the cookie that binds it to the browser. */
export const formOn = async (page: Response) => ({
  handle: /name="handle" value="([^"]+)"/.exec(await page.text())?.[1] ?? "",
  cookie: page.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; "),
});

/** The page opened and its form posted with `key`, as a browser does: the code it sends the app, and its PKCE verifier. */
export const signInCode = async (clientId: string, key: string, scope = "read", redirectUri = REDIRECT_URI) => {
  const { verifier, challenge } = await pkcePair();
  const query = authorizeQuery(clientId, challenge, scope, redirectUri);
  const { handle, cookie } = await formOn(await fetchApi(`/authorize?${query}`));
  const signedIn = await fetchApi("/authorize", formPost({ handle, key, decision: "allow" }, { Cookie: cookie }));
  const code = new URL(signedIn.headers.get("Location") ?? "").searchParams.get("code") ?? "";
  return { code, verifier };
};

/**
 * The sign-in Worker's 503 to `sent` while a store it depends on fails (docs/mcp.md): with
 * Retry-After, a page at /authorize, OAuth's JSON error elsewhere, never cached.
 */
export const expectUnavailable = async (response: Response, sent: Request) => {
  const message = "Signing in is unavailable for a moment; try again in 3 seconds.";
  expect(response.status).toBe(503);
  expect(response.headers.get("Retry-After")).toBe("3");
  if (new URL(sent.url).pathname === "/authorize") {
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toContain(message);
    return;
  }
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect(await response.json()).toEqual({ error: "temporarily_unavailable", error_description: message });
};

/** The tokens a public client `clientId` gets with `key` for `scope`: the page, the form, the code exchange. */
export const tokensFor = async (clientId: string, key: string, scope = "read") => {
  const { code, verifier } = await signInCode(clientId, key, scope);
  const exchanged = await fetchApi(
    "/oauth/token",
    formPost({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
    }),
  );
  expect(exchanged.status).toBe(200);
  return (await exchanged.json()) as { access_token: string; refresh_token: string; scope: string };
};

/** What a host does to get a token with `key`: registration, then tokensFor. */
export const accessTokenFor = async (key: string, scope = "read") => {
  const { client_id: clientId } = await registerClient("Worker test host", "none");
  return (await tokensFor(clientId, key, scope)).access_token;
};
