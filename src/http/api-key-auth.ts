// The API's doors to the key check (./verify.ts): the bearer token of a request, and a
// verdict as HTTP says it (401 with RFC 6750's challenge, 429, 503), or the caller admitted.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { Refusal, unavailable } from "../core/refusal";
import type { AppEnv } from "../env";
import { hasScope, isApiKeyCredential, type Scope } from "../keys/api-key";
import { keyUseUnrecorded, recordKeyUse } from "../keys/last-used";
import { type AdmittedKey, type KeyCheckContext, type KeyVerdict, verifyKey } from "../keys/verify";
import { excerpt } from "../lib/display-text";
import { RATE_LIMIT_PERIOD_S } from "../lib/limiters";
import { declareOwnHeader } from "./answer-headers";
import { ApiError } from "./errors";
import { faultContext } from "./request-log";

declare module "hono" {
  interface ContextVariableMap {
    /** The caller's key, as admitted (an access token's scopes narrow it). */
    apiKey: AdmittedKey;
  }
}

// RFC 6750: the scheme is case-insensitive and the token is a b64token.
const BEARER = /^bearer +([A-Za-z0-9._~+/:-]+=*) *$/i;
/** RFC 6750, section 3: each kind of 401's challenge; no error code when no credentials were sent. */
export const BEARER_CHALLENGES = {
  missing: 'Bearer realm="petstore"',
  malformed: 'Bearer realm="petstore", error="invalid_request", error_description="Send Authorization: Bearer <key>"',
  invalid: 'Bearer realm="petstore", error="invalid_token", error_description="The API key is not valid"',
  expired: 'Bearer realm="petstore", error="invalid_token", error_description="The API key has expired"',
} as const;
/** On every answer to a key that has an expiry: when it stops working, as an HTTP date. */
export const KEY_EXPIRATION_HEADER = "Api-Key-Expiration";

/** What a refusal says of the credential: an API key's words, or an access token's. */
export type Refusals = {
  invalid: string;
  expired: (instant: string) => string;
  /** The credentials whose guessing is throttled, as a 429 names them. */
  unknown: string;
  /** RFC 6750's challenge to an invalid credential. */
  challenge: string;
};
const KEY_REFUSALS: Refusals = {
  invalid: "The API key is not valid.",
  expired: (instant) => `The API key expired at ${instant}.`,
  unknown: "unknown API keys",
  challenge: BEARER_CHALLENGES.invalid,
};

/** The 429 of an address past AUTH_FAILURE_LIMITER's allowance for unknown credentials. */
export const throttled = (unknown: string) =>
  new Refusal(
    "rate_limited",
    `Too many requests with ${unknown} from this address; retry in ${RATE_LIMIT_PERIOD_S} seconds.`,
    RATE_LIMIT_PERIOD_S,
  );

/** A refused verdict as the API's error. */
export const refusal = (verdict: Exclude<KeyVerdict, { admitted: true }>, refusals: Refusals): Refusal => {
  if (verdict.refusal === "expired") {
    // excerpt: the record is the operator's, written by hand perhaps; a message stays short.
    return new ApiError("unauthorized", refusals.expired(excerpt(verdict.expiresAt)), {
      "WWW-Authenticate": BEARER_CHALLENGES.expired,
    });
  }
  if (verdict.refusal === "throttled") return throttled(refusals.unknown);
  if (verdict.refusal === "unavailable") return unavailable("The API key store");
  return new ApiError("unauthorized", refusals.invalid, { "WWW-Authenticate": refusals.challenge });
};

/** Who asks the key check: the request (its client's address, read if an attempt is counted) and its id. */
export const keyCheckContextOf = (c: Context<AppEnv>): KeyCheckContext => ({
  requestId: c.get("requestId"),
  from: c.req.raw,
});

/**
 * Admits the caller of an admitting verdict, or throws its refusal. `grantedScopes`, an
 * access token's, narrow the key's own. Then the caller sees its key's expiry coming (as
 * GitHub's github-authentication-token-expiration), and its use is recorded.
 */
export const admit = (
  c: Context<AppEnv>,
  verdict: KeyVerdict,
  now: number,
  refusals: Refusals,
  grantedScopes?: Scope[],
) => {
  if (!verdict.admitted) throw refusal(verdict, refusals);
  const { key } = verdict;
  const scopes = grantedScopes?.filter((scope) => hasScope(key, scope));
  c.set("apiKey", scopes ? { ...key, scopes } : key);
  if (key.expiresAt !== undefined) declareOwnHeader(c, KEY_EXPIRATION_HEADER, new Date(key.expiresAt).toUTCString());
  // Most calls find today's use written: the write's store is made only for the one that does not.
  if (keyUseUnrecorded(key.hash, now)) {
    const waitUntil = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
    recordKeyUse({ DB: c.env.DB, waitUntil, faults: () => faultContext(c) }, key.hash, now);
  }
};

/** The token of the request's `Authorization: Bearer` header; 401 without one. */
export const bearerToken = (c: Context<AppEnv>): string => {
  const header = c.req.header("Authorization");
  if (!header) {
    throw new ApiError("unauthorized", "Send an API key as 'Authorization: Bearer <key>'.", {
      "WWW-Authenticate": BEARER_CHALLENGES.missing,
    });
  }
  const token = BEARER.exec(header)?.[1];
  if (!token) {
    throw new ApiError("unauthorized", "The Authorization header must be 'Bearer <key>'.", {
      "WWW-Authenticate": BEARER_CHALLENGES.malformed,
    });
  }
  return token;
};

/** Admits the API key `token` (./verify.ts), as the caller of the request. */
export const admitApiKey = async (c: Context<AppEnv>, token: string) => {
  const now = Date.now();
  admit(c, await verifyKey(c.env, token, now, keyCheckContextOf(c)), now, KEY_REFUSALS);
};

/**
 * /v1's door: runs before any validation or database work. It takes API keys only; anything
 * without a key's prefix (an access token from signing in, most likely) is told so, unread.
 */
export const requireApiKey = createMiddleware<AppEnv>((c, next) => {
  const token = bearerToken(c);
  if (!isApiKeyCredential(token)) {
    throw new ApiError(
      "unauthorized",
      "That is not an API key (ps_live_... or ps_test_...): /v1 takes API keys; an access token from signing in works at /mcp only.",
      { "WWW-Authenticate": BEARER_CHALLENGES.invalid },
    );
  }
  return admitApiKey(c, token).then(() => next());
});
