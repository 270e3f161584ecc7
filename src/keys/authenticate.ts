import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../env";
import { ApiError, excerpt, unavailable } from "../http/errors";
import { isWithinLimit, RATE_LIMIT_PERIOD_S } from "../http/rate-limit";
import { BoundedCache } from "../lib/bounded-cache";
import { logDependencyFault, withDeadline } from "../lib/faults";
import { addressOf } from "./address-group";
import {
  type ApiKeyRecord,
  hasExpired,
  hashApiKey,
  hasScope,
  isWellFormedApiKey,
  KNOWN_KEY_TTL_MS,
  KV_CACHE_TTL_S,
  type Scope,
} from "./api-key";
import { recordKeyUse } from "./last-used";

/** A key's record, and the key's hash: the caller's identity for rate limits and idempotency. */
type AdmittedKey = ApiKeyRecord & { hash: string };
declare module "hono" {
  interface ContextVariableMap {
    /** The caller's key. */
    apiKey: AdmittedKey;
  }
}

// RFC 6750: the scheme is case-insensitive and the token is a b64token; and ':', which
// access tokens have (userId:grantId:secret, @cloudflare/workers-oauth-provider).
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

/**
 * Unknown keys are remembered briefly, so that a newly created key works within seconds.
 * A known key is trusted for KNOWN_KEY_TTL_MS (src/keys/api-key.ts).
 */
export const UNKNOWN_KEY_TTL_MS = 5_000;
/**
 * While KV fails, a key this isolate verified within this time keeps working (a
 * revocation made meanwhile takes effect once KV answers again); any other key gets 503.
 */
export const KV_FAULT_GRACE_MS = 10 * 60_000;
/** A KV read normally takes milliseconds; one that takes this long is failing. */
export const KV_READ_DEADLINE_MS = 3000;

// Apart, so that no flood of unknown keys can push a valid key out. Known keys are held
// with their hash, as each request is handed them: no copy per request.
const knownKeys = new BoundedCache<string, AdmittedKey>({ share: "knownKeys", ttlMs: KNOWN_KEY_TTL_MS });
const unknownKeys = new BoundedCache<string, true>({ share: "unknownKeys", ttlMs: UNKNOWN_KEY_TTL_MS });
// The hash of a key this isolate verified, so that its next requests skip the digest (an
// asynchronous call, dearer than its arithmetic): valid keys only, so a flood of others
// cannot fill it. The plain key stays in memory, as in every request's header, never in storage.
const keyHashes = new BoundedCache<string, string>({ share: "keyHashes", ttlMs: KNOWN_KEY_TTL_MS });

const unauthorized = (kind: keyof typeof BEARER_CHALLENGES, message: string) =>
  new ApiError("unauthorized", message, { "WWW-Authenticate": BEARER_CHALLENGES[kind] });

/**
 * Every attempt with a key this isolate does not know to be valid counts against the
 * client's address, before KV is read: a client guessing keys gets 429 after
 * AUTH_FAILURE_LIMITER's allowance and costs at most that many KV reads per period.
 */
export const countUnverifiedAttempt = async (c: Context<AppEnv>) => {
  if (!(await isWithinLimit(c, "AUTH_FAILURE_LIMITER", addressOf(c.req.raw)))) {
    throw new ApiError(
      "rate_limited",
      `Too many requests with unknown API keys from this address; retry in ${RATE_LIMIT_PERIOD_S} seconds.`,
      { "Retry-After": String(RATE_LIMIT_PERIOD_S) },
    );
  }
};

/**
 * On a KV fault (KV answers null for a key it does not have, and throws when it fails:
 * only the first is a verdict on the key), a key this isolate verified lately is served
 * from its expired entry, which is not renewed; any other key gets 503, and nothing is
 * remembered of it.
 */
const duringKvFault = (c: Context<AppEnv>, hash: string, error: unknown): AdmittedKey => {
  const lastVerified = knownKeys.getStale(hash, KV_FAULT_GRACE_MS - KNOWN_KEY_TTL_MS);
  logDependencyFault(c, "KV", error, lastVerified ? "served a key verified lately" : "503");
  if (!lastVerified) throw unavailable("The API key store");
  return lastVerified;
};

const lookUp = async (c: Context<AppEnv>, hash: string): Promise<AdmittedKey | null> => {
  const known = knownKeys.get(hash);
  if (known) return known;
  // A key that was valid a minute ago is re-read even from a throttled address, so
  // that someone else's flood from behind the same address cannot lock its client out.
  if (!knownKeys.hasExpired(hash)) {
    await countUnverifiedAttempt(c);
    if (unknownKeys.get(hash)) return null;
  }
  let record: ApiKeyRecord | null;
  try {
    record = await withDeadline(
      c.env.API_KEYS.get<ApiKeyRecord>(hash, { type: "json", cacheTtl: KV_CACHE_TTL_S }),
      KV_READ_DEADLINE_MS,
      "KV",
    );
  } catch (error) {
    return duringKvFault(c, hash, error);
  }
  if (!record) {
    knownKeys.delete(hash);
    unknownKeys.set(hash, true);
    return null;
  }
  const admitted = { ...record, hash };
  knownKeys.set(hash, admitted);
  unknownKeys.delete(hash);
  return admitted;
};

/** What a 401 says of a credential that is not (or no longer) valid: a key's words, or an access token's. */
export type Refusals = { invalid: string; expired: (instant: string) => string };
const KEY_REFUSALS: Refusals = {
  invalid: "The API key is not valid.",
  expired: (instant) => `The API key expired at ${instant}.`,
};

/**
 * Admits the caller whose key has `hash`, or refuses it (401): known to KV, through this
 * isolate's cache (KNOWN_KEY_TTL_MS), and unexpired, from its instant on, also while this
 * isolate still holds its record. `grantedScopes`, an access token's, narrow the key's own.
 */
export const admitKey = async (c: Context<AppEnv>, hash: string, refusals: Refusals, grantedScopes?: Scope[]) => {
  const record = await lookUp(c, hash);
  if (!record) throw unauthorized("invalid", refusals.invalid);
  const now = Date.now();
  // excerpt: the record is the operator's, written by hand perhaps; a message stays short.
  if (hasExpired(record, now)) throw unauthorized("expired", refusals.expired(excerpt(String(record.expiresAt))));
  const scopes = grantedScopes?.filter((scope) => hasScope(record, scope));
  c.set("apiKey", scopes ? { ...record, scopes } : record);
  // So that a caller sees the expiry coming, as GitHub's github-authentication-token-expiration.
  if (record.expiresAt !== undefined) c.header(KEY_EXPIRATION_HEADER, new Date(record.expiresAt).toUTCString());
  recordKeyUse(c, hash, now);
};

/** The token of the request's `Authorization: Bearer` header; 401 without one. */
export const bearerToken = (c: Context<AppEnv>): string => {
  const header = c.req.header("Authorization");
  if (!header) throw unauthorized("missing", "Send an API key as 'Authorization: Bearer <key>'.");
  const token = BEARER.exec(header)?.[1];
  if (!token) throw unauthorized("malformed", "The Authorization header must be 'Bearer <key>'.");
  return token;
};

/** A tool call's operation runs as the caller that /mcp's door admitted (src/mcp/call.ts), not again. */
export type AdmittedAtTheDoor = { ADMITTED_CALLER?: AdmittedKey };

/**
 * Admits the key `token` (see admitKey). A token that cannot be one of our keys (its shape,
 * or its checksum) is refused without a KV read or a limiter call; a key this isolate
 * verified has both, so only another is checked.
 */
export const admitApiKey = async (c: Context<AppEnv>, token: string) => {
  const knownHash = keyHashes.get(token);
  if (!knownHash && !isWellFormedApiKey(token)) throw unauthorized("invalid", KEY_REFUSALS.invalid);
  const hash = knownHash ?? (await hashApiKey(token));
  await admitKey(c, hash, KEY_REFUSALS);
  if (!knownHash) keyHashes.set(token, hash);
};

/** Runs before any validation or database work. */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const admitted = (c.env as AdmittedAtTheDoor).ADMITTED_CALLER;
  if (admitted) c.set("apiKey", admitted);
  else await admitApiKey(c, bearerToken(c));
  await next();
});

/** GET and HEAD read; every other method writes, so that a method added later needs `write` unless said otherwise. */
const scopeOf = (method: string): Scope => (method === "GET" || method === "HEAD" ? "read" : "write");

/**
 * After authentication: a key lacking the scope of the request's method gets 403, before
 * any validation. A method that no route of the path answers needs no scope: it goes on
 * to the 405 with Allow (or the 404) that every valid key gets.
 */
export const requireScope = createMiddleware<AppEnv>(async (c, next) => {
  const scope = scopeOf(c.req.method);
  const routed = matchedRoutes(c).some((route) => route.method !== "ALL");
  if (routed && !hasScope(c.get("apiKey"), scope)) {
    throw new ApiError("forbidden", `This API key does not have the '${scope}' scope, which this operation needs.`);
  }
  await next();
});
