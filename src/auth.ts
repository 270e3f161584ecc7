import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { API_KEY_PATTERN, type ApiKeyRecord, hashApiKey } from "./api-keys";
import { BoundedCache } from "./bounded-cache";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { RATE_LIMIT_PERIOD_S } from "./rate-limit";

// RFC 6750: the scheme is case-insensitive and the token is a b64token.
const BEARER = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i;
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="petstore"' };

/**
 * How long a lookup is trusted inside an isolate. KV itself is eventually consistent
 * for about 60 s, so caching a known key that long adds no new staleness class; a
 * revoked key stops working at most KNOWN_KEY_TTL_MS (isolate) + KV_CACHE_TTL_S (KV's
 * edge cache) after the revocation. Unknown keys are remembered briefly, so that a
 * newly created key works within seconds.
 */
export const KNOWN_KEY_TTL_MS = 60_000;
export const UNKNOWN_KEY_TTL_MS = 5_000;
const KV_CACHE_TTL_S = 60;
const MAX_CACHED_KEYS = 10_000;

// Apart, so that no flood of unknown keys can push a valid key out.
const knownKeys = new BoundedCache<string, ApiKeyRecord>({
  maxEntries: MAX_CACHED_KEYS,
  ttlMs: KNOWN_KEY_TTL_MS,
});
const unknownKeys = new BoundedCache<string, true>({ maxEntries: MAX_CACHED_KEYS, ttlMs: UNKNOWN_KEY_TTL_MS });

const unauthorized = (message: string) => new ApiError("unauthorized", message, CHALLENGE);

/** Cloudflare sets CF-Connecting-IP on every request; `wrangler dev` sets it to the local client's address. */
const clientAddress = (c: Context<AppEnv>) => c.req.header("CF-Connecting-IP") ?? "unknown";

/**
 * Every attempt with a key this isolate does not know to be valid counts against the
 * client's address, before KV is read: a client guessing keys gets 429 after
 * AUTH_FAILURE_LIMITER's allowance and costs at most that many KV reads per period.
 */
const countUnverifiedAttempt = async (c: Context<AppEnv>) => {
  const { success } = await c.env.AUTH_FAILURE_LIMITER.limit({ key: clientAddress(c) });
  if (!success) {
    throw new ApiError(
      "rate_limited",
      `Too many requests with unknown API keys from this address; retry in ${RATE_LIMIT_PERIOD_S} seconds.`,
      { "Retry-After": String(RATE_LIMIT_PERIOD_S) },
    );
  }
};

const lookUp = async (c: Context<AppEnv>, hash: string): Promise<ApiKeyRecord | null> => {
  const known = knownKeys.get(hash);
  if (known) return known;
  // A key that was valid a minute ago is re-read even from a throttled address, so
  // that someone else's flood from behind the same address cannot lock its client out.
  if (!knownKeys.hasExpired(hash)) {
    await countUnverifiedAttempt(c);
    if (unknownKeys.get(hash)) return null;
  }
  const record = await c.env.API_KEYS.get<ApiKeyRecord>(hash, { type: "json", cacheTtl: KV_CACHE_TTL_S });
  if (record) {
    knownKeys.set(hash, record);
    unknownKeys.delete(hash);
  } else {
    knownKeys.delete(hash);
    unknownKeys.set(hash, true);
  }
  return record;
};

/**
 * Runs before any validation or database work. A token that cannot be one of our
 * keys is refused without a KV read.
 */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization");
  if (!header) throw unauthorized("Send an API key as 'Authorization: Bearer <key>'.");
  const token = BEARER.exec(header)?.[1];
  if (!token) throw unauthorized("The Authorization header must be 'Bearer <key>'.");
  if (!API_KEY_PATTERN.test(token)) throw unauthorized("The API key is not valid.");
  const hash = await hashApiKey(token);
  const record = await lookUp(c, hash);
  if (!record) throw unauthorized("The API key is not valid.");
  c.set("apiKey", { ...record, hash });
  await next();
});
