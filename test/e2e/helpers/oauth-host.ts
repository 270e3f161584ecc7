import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";

// An agent's host as the OAuth tests stand it in: what the official v2 client asks of a host
// (OAuthClientProvider), kept in memory, and its loopback callback, where the browser lands
// after the sign-in page (RFC 8252), which records what it was sent.

export const HOST_NAME = "E2E Agent Host";

/**
 * A client address of its own (RFC 2544's benchmarking range) for each registration and page
 * a test opens: each counts against its address on the throttle of strangers (src/auth-server/
 * strangers.ts), and a test of something else must not reach it. Throttle tests send their own.
 */
export const freshAddress = () => {
  const [high = 0, low = 0] = randomBytes(2);
  return { "CF-Connecting-IP": `198.18.${high}.${low}` };
};

/** A loopback server at /callback: its address, and each query string it was sent. */
export const startCallback = async () => {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    // Only the callback: a browser also asks for /favicon.ico.
    if (url.pathname !== "/callback") return void response.writeHead(404).end();
    received.push(url.searchParams);
    response.end("Signed in: you may close this page.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export class MemoryHost implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  client: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  private verifier = "";
  private discovered: OAuthDiscoveryState | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: HOST_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: StoredOAuthClientInformation) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  discoveryState() {
    return this.discovered;
  }
}

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
