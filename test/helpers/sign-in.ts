import { BASE_URL, send } from "./index";

// What the workerd suites that sign in through /authorize and /oauth/* share: a request to
// the API's host (which hands them to the sign-in Worker), a form posted as a browser posts
// it, and a PKCE pair. Over real HTTP: test/e2e/helpers/oauth-host.ts.

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
export const authorizeQuery = (clientId: string, challenge: string, scope = "read") =>
  new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope,
    resource: `${BASE_URL}/mcp`,
  });
