// The authorization server of each origin the API is served at: the issuer and the resource
// are the API's own host (a custom domain, workers.dev, a preview), so a Worker serves a few.
import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { SCOPES } from "../keys/api-key";
import type { AuthEnv } from "./env";
import { ACCESS_TOKEN_TTL_S, boundByKey, REFRESH_TOKEN_TTL_S } from "./lifetimes";

export const TOKEN_PATH = "/oauth/token";

/** The origins whose servers are kept at once: past them, all are let go, so that requests to ever new hosts cannot grow the isolate. */
export const MAX_ORIGINS = 8;

const serverOf = (origin: string) =>
  new OAuthAuthorizationServer<AuthEnv>({
    issuer: origin,
    resources: [`${origin}/mcp`],
    authorizeEndpoint: "/authorize",
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: "/oauth/register",
    scopesSupported: [...SCOPES],
    clientIdMetadataDocumentEnabled: true,
    // Native apps' private-use schemes (RFC 8252 section 7.1), held to ./redirect-schemes.ts.
    allowPrivateUseRedirectUris: true,
    accessTokenTTL: ACCESS_TOKEN_TTL_S,
    refreshTokenTTL: REFRESH_TOKEN_TTL_S,
    tokenExchangeCallback: boundByKey,
    // Not the library's line for every refusal: a refusal is the client's to read, and each
    // request's status is in the Worker's own logs; a store's fault has its fault line (./worker.ts).
    onError: () => undefined,
  });

/** The server for an origin, made on its first request and kept for the next (at most MAX_ORIGINS at once). */
export const serversByOrigin = () => {
  const servers = new Map<string, OAuthAuthorizationServer<AuthEnv>>();
  return (origin: string) => {
    let server = servers.get(origin);
    if (!server) {
      if (servers.size >= MAX_ORIGINS) servers.clear();
      server = serverOf(origin);
      servers.set(origin, server);
    }
    return server;
  };
};
