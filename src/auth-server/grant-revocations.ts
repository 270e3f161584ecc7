// What ends a grant at the token endpoint, before the library sees the request:
// - A refresh token used a second time (RFC 9700 section 4.14.2). The library keeps a grant's
//   previous refresh token valid beside its successor; whoever presents it again is either
//   its client, whose answer was lost, or someone who copied it, and the two cannot be told
//   apart. So the grant is revoked, both tokens with it, and its host signs in again. The
//   library forgets a token two rotations back; a record is kept of each one it forgets
//   (written only at a refresh with the grant's current token, so no stranger can add one),
//   so that any token a grant ever had, used again, revokes it.
// - A code whose PKCE check fails (RFC 9700 section 2.1.1): the library refuses the exchange
//   and keeps the code for another try; here the code is used up, its grant revoked, so that
//   no one can go on guessing the verifier of a code they hold.
import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { sha256Hex } from "../lib/sha256";
import type { AuthEnv } from "./env";
import { REFRESH_TOKEN_TTL_S } from "./lifetimes";

/** The grant a token or code names (userId:grantId:secret), its id as the library stores it (SHA-256, hex), and the grant's record. */
export const grantOf = async <Grant>(env: AuthEnv, token: string) => {
  const [userId, grantId, secret, ...rest] = token.split(":");
  if (!userId || !grantId || !secret || rest.length > 0) return undefined;
  const grant = await env.OAUTH_KV.get<Grant>(`grant:${userId}:${grantId}`, { type: "json" });
  return grant ? { userId, grantId, tokenId: await sha256Hex(token), grant } : undefined;
};

/** What a grant's record says of its refresh tokens and scopes. */
export type RefreshGrant = { refreshTokenId?: string; previousRefreshTokenId?: string; scope?: string[] };
/** A grant that a token or code names, found. */
export type Named<Grant> = NonNullable<Awaited<ReturnType<typeof grantOf<Grant>>>>;

/** The record of a refresh token its grant no longer knows, kept as long as the token could have lived. */
const retiredKey = (tokenId: string) => `retired-refresh-token:${tokenId}`;

/**
 * Whether the grant's refresh token `named` was used already (its grant's previous one, or one retired before
 * it): then the grant is revoked. At a refresh with the grant's current token, the previous
 * one, which the library forgets at this refresh, is recorded as retired.
 */
export const revokedForReuse = async (env: AuthEnv, oauth: OAuthHelpers, named: Named<RefreshGrant>) => {
  const { grant, tokenId } = named;
  if (grant.refreshTokenId === tokenId) {
    if (grant.previousRefreshTokenId) {
      await env.OAUTH_KV.put(retiredKey(grant.previousRefreshTokenId), named.grantId, {
        expirationTtl: REFRESH_TOKEN_TTL_S,
      });
    }
    return false;
  }
  const reused = grant.previousRefreshTokenId === tokenId || (await env.OAUTH_KV.get(retiredKey(tokenId))) !== null;
  if (reused) await oauth.revokeGrant(named.grantId, named.userId);
  return reused;
};

/** A PKCE S256 challenge of `verifier` (RFC 7636 section 4.2): SHA-256, base64url without padding. */
const s256 = async (verifier: string) => {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
};

/**
 * Whether the code exchange in `form` names its grant's unused code with a code_verifier that
 * fails its challenge: then the grant is revoked, and its code with it.
 */
export const revokedForFailedPkce = async (env: AuthEnv, oauth: OAuthHelpers, form: URLSearchParams) => {
  const code = form.get("code");
  const verifier = form.get("code_verifier");
  if (!code || verifier === null) return false;
  const named = await grantOf<{ authCodeId?: string; authCodeWrappedKey?: string; codeChallenge?: string }>(env, code);
  if (!named) return false;
  const { grant, tokenId } = named;
  // Only the code itself, unused, can be used up: anyone else's guess of it finds nothing here.
  if (grant.authCodeId !== tokenId || !grant.authCodeWrappedKey || !grant.codeChallenge) return false;
  if ((await s256(verifier)) === grant.codeChallenge) return false;
  await oauth.revokeGrant(named.grantId, named.userId);
  return true;
};
