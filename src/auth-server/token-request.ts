// A request to the token endpoint, read before the library sees it, for two rules the
// library lacks:
// - A confidential client that authenticates with HTTP Basic and repeats its client_id in
//   the form, as Python's `mcp` client (2.3) and every host built on it does. RFC 6749
//   section 2.3 forbids more than one way of authenticating; a client_id alone proves nothing
//   (section 4.1.3 has clients that do not authenticate send it), so one that repeats Basic's
//   id is dropped. Another client_id goes on, for the library to refuse, as does a
//   client_secret beside Basic, a second way whether or not the client_id stays.
// - A refresh token used a second time (RFC 9700 section 4.14.2). The library keeps a grant's
//   previous refresh token valid beside its successor; whoever presents it again is either
//   its client, whose answer was lost, or someone who copied it, and the two cannot be told
//   apart. So the grant is revoked, both tokens with it, and its host signs in again. The
//   library forgets a token two rotations back; this file keeps a record of each one the
//   library forgets (written only at a refresh with the grant's current token, so no stranger
//   can add one), so that any token a grant ever had, used again, revokes it.
import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { readBounded } from "../lib/bounded-body";
import { sha256Hex } from "../lib/sha256";
import type { AuthEnv } from "./env";
import { REFRESH_TOKEN_TTL_S } from "./lifetimes";

/** Far more than any request of the token endpoint holds (a code, a verifier, a refresh token). */
export const MAX_TOKEN_REQUEST_BYTES = 16_384;

/** The client id of `Authorization: Basic` (RFC 6749 section 2.3.1: form-encoded, then Base64), if that is what it holds. */
const basicClientId = (authorization: string | null) => {
  const encoded = /^basic[\t ]+([A-Za-z0-9+/]+={0,2})$/i.exec(authorization ?? "")?.[1];
  if (encoded === undefined) return undefined;
  try {
    const credentials = atob(encoded);
    const separator = credentials.indexOf(":");
    return separator === -1 ? undefined : decodeURIComponent(credentials.slice(0, separator).replaceAll("+", " "));
  } catch {
    return undefined;
  }
};

const refusal = (status: number, error: string, description: string) =>
  Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store" } });

/** The grant a refresh token names (userId:grantId:secret), and the token's id as the library stores it (SHA-256, hex). */
const grantOf = async (refreshToken: string) => {
  const [userId, grantId, secret, ...rest] = refreshToken.split(":");
  if (!userId || !grantId || !secret || rest.length > 0) return undefined;
  return { userId, grantId, tokenId: await sha256Hex(refreshToken) };
};

/** The record of a refresh token its grant no longer knows, kept as long as the token could have lived. */
const retiredKey = (tokenId: string) => `retired-refresh-token:${tokenId}`;

/**
 * Whether `refreshToken` was used already (its grant's previous one, or one retired before
 * it): then the grant is revoked. At a refresh with the grant's current token, the previous
 * one, which the library forgets at this refresh, is recorded as retired.
 */
const revokedForReuse = async (env: AuthEnv, oauth: OAuthHelpers, refreshToken: string) => {
  const named = await grantOf(refreshToken);
  if (!named) return false;
  const grant = await env.OAUTH_KV.get<{ refreshTokenId?: string; previousRefreshTokenId?: string }>(
    `grant:${named.userId}:${named.grantId}`,
    { type: "json" },
  );
  if (!grant) return false;
  if (grant.refreshTokenId === named.tokenId) {
    if (grant.previousRefreshTokenId) {
      await env.OAUTH_KV.put(retiredKey(grant.previousRefreshTokenId), named.grantId, {
        expirationTtl: REFRESH_TOKEN_TTL_S,
      });
    }
    return false;
  }
  const reused =
    grant.previousRefreshTokenId === named.tokenId || (await env.OAUTH_KV.get(retiredKey(named.tokenId))) !== null;
  if (reused) await oauth.revokeGrant(named.grantId, named.userId);
  return reused;
};

/** The token request to go on with, or the answer that refuses it first. */
export const preparedTokenRequest = async (
  env: AuthEnv,
  oauth: OAuthHelpers,
  request: Request,
): Promise<Request | Response> => {
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (request.method !== "POST" || type !== "application/x-www-form-urlencoded") return request;
  const body = await readBounded(request, MAX_TOKEN_REQUEST_BYTES);
  if (body === undefined) {
    return refusal(413, "invalid_request", `A token request may be at most ${MAX_TOKEN_REQUEST_BYTES} bytes.`);
  }
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const refreshToken = form.get("refresh_token");
  if (form.get("grant_type") === "refresh_token" && refreshToken && (await revokedForReuse(env, oauth, refreshToken))) {
    return refusal(400, "invalid_grant", "This refresh token was used already: its access is revoked; sign in again.");
  }
  const basicId = basicClientId(request.headers.get("Authorization"));
  const repeatsBasic = form.getAll("client_id").length === 1 && form.get("client_id") === basicId;
  if (!repeatsBasic) return new Request(request, { body });
  form.delete("client_id");
  return new Request(request, { body: form.toString() });
};
