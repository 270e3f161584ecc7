// How long what the sign-in Worker issues lives: never longer than the key it was signed in with.
import { OAuthError } from "@cloudflare/workers-oauth-provider";
import { verifyKeyHash } from "../keys/verify";
import type { AuthEnv, GrantProps } from "./env";
import { unavailableError } from "./unavailable";

/** An access token lives 15 minutes: a host refreshes it, and each refresh re-reads the key. */
export const ACCESS_TOKEN_TTL_S = 900;
/** A grant's refresh token lives 30 days, never past its key's expiry. */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
/**
 * KV's shortest expiration: a key that ends sooner gets no refresh token, and an access
 * token of this long (the API refuses a key from its expiry on, whatever the token says).
 */
const SHORTEST_TTL_S = 60;

/**
 * At each code exchange and refresh: the grant's key, read afresh, must still be valid, and
 * no token outlives it. A revoked or expired key ends the grant here at once, and its access
 * tokens at the API's next re-check of the key (within its bound of 60 s).
 */
export const boundByKey = async ({ env, props, grantType }: { env: AuthEnv; props: GrantProps; grantType: string }) => {
  const now = Date.now();
  // The one key check, read afresh; not counted against an address: a grant's key is no guess.
  const verdict = await verifyKeyHash(env, props.keyHash, now, { fresh: true });
  if (!verdict.admitted && verdict.refusal === "unavailable") throw unavailableError();
  if (!verdict.admitted) {
    throw new OAuthError("invalid_grant", {
      description: "The API key this access was granted with is no longer valid.",
    });
  }
  const record = verdict.key;
  if (record.expiresAt === undefined) return undefined;
  const left = Math.floor((Date.parse(record.expiresAt) - now) / 1000);
  return {
    accessTokenTTL: Math.max(SHORTEST_TTL_S, Math.min(ACCESS_TOKEN_TTL_S, left)),
    ...(grantType === "authorization_code" && {
      refreshTokenTTL: left < SHORTEST_TTL_S ? 0 : Math.min(REFRESH_TOKEN_TTL_S, left),
    }),
  };
};
