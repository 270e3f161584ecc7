// The sign-in Worker (wrangler.auth.toml): the OAuth 2.1 authorization server through which
// agents' hosts that speak only OAuth reach /mcp (docs/mcp.md). It has no route of its own:
// the API Worker hands it /authorize, /oauth/* and /.well-known/oauth-authorization-server on
// the API's host, and asks it over RPC whether an access token is valid. A Worker apart, as
// the library is half again the API's whole bundle (docs/architecture.md).

import { WorkerEntrypoint } from "cloudflare:workers";
import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { SCOPES } from "../keys/api-key";
import { discardBody } from "../lib/bounded-body";
import { logDependencyFault } from "../lib/faults";
import type { AuthEnv, GrantProps } from "./env";
import { ACCESS_TOKEN_TTL_S, boundByKey, REFRESH_TOKEN_TTL_S } from "./lifetimes";
import { strictMetadataFetch } from "./metadata-fetch";
import { signIn } from "./sign-in";
import { PAGE_HEADERS, problemPage } from "./sign-in-page";
import { type Faults, guardStores, OverlongInput } from "./stores";
import { admitStranger } from "./strangers";
import { preparedTokenRequest } from "./token-request";
import { unavailableAnswer } from "./unavailable";

// The library fetches apps' metadata documents with the global fetch, and nothing else does here.
globalThis.fetch = strictMetadataFetch(globalThis.fetch.bind(globalThis));

const TOKEN_PATH = "/oauth/token";

/** One server per origin the API is served at: the issuer and the resource are the API's own host. */
const servers = new Map<string, OAuthAuthorizationServer<AuthEnv>>();
const MAX_ORIGINS = 8;
const serverFor = (origin: string) => {
  let server = servers.get(origin);
  if (!server) {
    if (servers.size >= MAX_ORIGINS) servers.clear();
    server = new OAuthAuthorizationServer<AuthEnv>({
      issuer: origin,
      resources: [`${origin}/mcp`],
      authorizeEndpoint: "/authorize",
      tokenEndpoint: TOKEN_PATH,
      clientRegistrationEndpoint: "/oauth/register",
      scopesSupported: [...SCOPES],
      clientIdMetadataDocumentEnabled: true,
      accessTokenTTL: ACCESS_TOKEN_TTL_S,
      refreshTokenTTL: REFRESH_TOKEN_TTL_S,
      tokenExchangeCallback: boundByKey,
      // Not the library's line for every refusal: a refusal is the client's to read, and each
      // request's status is in the Worker's own logs; a store's fault has its fault line (below).
      onError: () => undefined,
    });
    servers.set(origin, server);
  }
  return server;
};

/** A name the client sent that is longer than any the store can hold: bad input, not a fault. */
const overlongAnswer = (path: string) => {
  const message = "A value of the request is longer than any this server issues.";
  return path === "/authorize"
    ? new Response(problemPage(message), { status: 400, headers: PAGE_HEADERS })
    : Response.json({ error: "invalid_request", error_description: message }, { status: 400 });
};

/** The request as the library is to see it (./strangers.ts, ./token-request.ts), or the answer that refuses it first. */
const prepared = async (env: AuthEnv, request: Request, path: string) => {
  const admitted = await admitStranger(env, request, path);
  if (admitted instanceof Response || path !== TOKEN_PATH) return admitted;
  return preparedTokenRequest(env, serverFor(new URL(request.url).origin).getOAuthApi(env), admitted);
};

export default class AuthServer extends WorkerEntrypoint<AuthEnv> {
  override async fetch(request: Request) {
    const answer = await this.answerOf(request);
    // Whatever was not read of the body, read to its end before the answer (src/lib/bounded-body.ts):
    // a refusal that did not need it (the throttle's 429, the library's 405) included.
    await discardBody(request);
    return answer;
  }

  /**
   * Every request runs on its own guarded stores (./stores.ts): a fault of one, whatever the
   * library made of it, is answered 503 with Retry-After; a name too long to be stored, 400.
   */
  private async answerOf(request: Request) {
    const url = new URL(request.url);
    const server = serverFor(url.origin);
    const faults: Faults = { causes: [] };
    const env = guardStores(this.env, faults);
    let answer: Response | undefined;
    try {
      const ready = await prepared(env, request, url.pathname);
      if (ready instanceof Response) answer = ready;
      else if (url.pathname === "/authorize") answer = await signIn(server.getOAuthApi(env), env, ready);
      else answer = await server.fetch(ready, env, this.ctx);
    } catch (error) {
      if (error instanceof OverlongInput) return overlongAnswer(url.pathname);
      if (faults.causes.length === 0) throw error;
    }
    if (faults.causes.length === 0 && answer) return answer;
    logDependencyFault({}, "OAUTH_KV", faults.causes.at(-1), "503");
    return unavailableAnswer(url.pathname);
  }

  /** What the API asks of a bearer token at /mcp: its grant's key and scopes, or null; a store's fault rejects. */
  validateToken(resource: string, token: string) {
    const env = guardStores(this.env, { causes: [] });
    return serverFor(new URL(resource).origin).validateToken<GrantProps>(resource, token, env);
  }
}
