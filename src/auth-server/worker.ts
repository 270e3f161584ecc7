// The sign-in Worker (wrangler.auth.toml): the OAuth 2.1 authorization server through which
// agents' hosts that speak only OAuth reach /mcp (docs/mcp.md). It has no route of its own:
// the API Worker hands it /authorize, /oauth/* and /.well-known/oauth-authorization-server on
// the API's host, and asks it over RPC whether an access token is valid. A Worker apart, as
// the library is half again the API's whole bundle (docs/architecture.md).

import { WorkerEntrypoint } from "cloudflare:workers";
import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { SCOPES } from "../keys/api-key";
import type { AuthEnv, GrantProps } from "./env";
import { ACCESS_TOKEN_TTL_S, boundByKey, REFRESH_TOKEN_TTL_S } from "./lifetimes";
import { signIn } from "./sign-in";

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
      tokenEndpoint: "/oauth/token",
      clientRegistrationEndpoint: "/oauth/register",
      scopesSupported: [...SCOPES],
      clientIdMetadataDocumentEnabled: true,
      accessTokenTTL: ACCESS_TOKEN_TTL_S,
      refreshTokenTTL: REFRESH_TOKEN_TTL_S,
      tokenExchangeCallback: boundByKey,
    });
    servers.set(origin, server);
  }
  return server;
};

export default class AuthServer extends WorkerEntrypoint<AuthEnv> {
  override fetch(request: Request) {
    const url = new URL(request.url);
    const server = serverFor(url.origin);
    if (url.pathname === "/authorize") return signIn(server.getOAuthApi(this.env), this.env, request);
    return server.fetch(request, this.env, this.ctx);
  }

  /** What the API asks of a bearer token at /mcp: its grant's key and scopes, or null. */
  validateToken(resource: string, token: string) {
    return serverFor(new URL(resource).origin).validateToken<GrantProps>(resource, token, this.env);
  }
}
