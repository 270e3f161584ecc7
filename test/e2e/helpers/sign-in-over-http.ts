import { createHash, randomBytes } from "node:crypto";
import { freshAddress, HOST_NAME } from "./oauth-host";

// A sign-in as a host without the official client makes it, step by step over HTTP: a PKCE
// pair, the registration, the page and its form, the code's exchange, and a call with the
// token. The host the official client asks for: ./oauth-host.ts.

/** A PKCE pair (RFC 7636, S256). */
export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** Registers a public client by RFC 7591 at `origin`; its client_id. */
export const registerClient = async (origin: string, redirectUri: string, name = HOST_NAME) => {
  const response = await fetch(`${origin}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...freshAddress() },
    body: JSON.stringify({ client_name: name, redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
  });
  if (response.status !== 201) throw new Error(`registration: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
};

export type Authorization = {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope?: string;
  resource?: string;
};

export const authorizeUrl = (origin: string, { clientId, redirectUri, challenge, scope, resource }: Authorization) => {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "e2e-state",
    resource: resource ?? `${origin}/mcp`,
  });
  if (scope !== undefined) query.set("scope", scope);
  return `${origin}/authorize?${query}`;
};

/** The sign-in page for `authorization`: its answer, its text, the form's handle, and the cookie that binds it. */
export const openSignInPage = async (
  origin: string,
  authorization: Authorization,
  headers: Record<string, string> = {},
) => {
  const page = await fetch(authorizeUrl(origin, authorization), {
    redirect: "manual",
    headers: { ...freshAddress(), ...headers },
  });
  const html = await page.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return { page, html, handle, cookie };
};

/** The sign-in form posted as a browser posts it (with `cookie`, if any); the answer, unfollowed. */
export const postSignInForm = (origin: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${origin}/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...freshAddress(), ...headers },
    body: new URLSearchParams(fields),
  });

/**
 * The sign-in page as a browser without script sees it, driven by fetch: the page, then the
 * form posted back with the page's cookie and `key`. The answer to the form, unfollowed.
 */
export const signInOverHttp = async (origin: string, authorization: Authorization, key: string) => {
  const { page, html, handle, cookie } = await openSignInPage(origin, authorization);
  if (page.status !== 200 || !handle) return { page, html, answer: undefined };
  const answer = await postSignInForm(origin, { handle, key, decision: "allow" }, { Cookie: cookie, Origin: origin });
  return { page, html, answer };
};

/** The token endpoint's answer to `form`. */
export const tokenRequest = (origin: string, form: Record<string, string>) =>
  fetch(`${origin}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });

/** Exchanges the code of a sign-in's redirect for tokens. */
export const exchangeCode = (origin: string, location: string, authorization: Authorization, verifier: string) =>
  tokenRequest(origin, {
    grant_type: "authorization_code",
    code: new URL(location).searchParams.get("code") ?? "",
    redirect_uri: authorization.redirectUri,
    client_id: authorization.clientId,
    code_verifier: verifier,
    resource: authorization.resource ?? `${origin}/mcp`,
  });

/** A tools/call of list_pets on 2025-11-25's terms, with `token` as the bearer. */
export const listPetsWith = (origin: string, token: string) =>
  fetch(`${origin}/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_pets", arguments: {} } }),
  });
