import { createMiddleware } from "hono/factory";
import { API_KEY_PATTERN, type ApiKeyRecord, hashApiKey } from "./api-keys";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

// RFC 6750: the scheme is case-insensitive and the token is a b64token.
const BEARER = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i;
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="petstore"' };

/**
 * How long a lookup is trusted inside an isolate. KV itself is eventually consistent
 * for about 60 s, so caching a known key that long adds no new staleness class; a
 * revoked key stops working at most KNOWN_KEY_TTL_MS (isolate) + KV_CACHE_TTL_S (KV's
 * edge cache) after the revocation. Unknown keys are cached briefly so that a flood
 * of one bad key costs one KV read, while a newly created key works within seconds.
 */
export const KNOWN_KEY_TTL_MS = 60_000;
export const UNKNOWN_KEY_TTL_MS = 5_000;
export const KV_CACHE_TTL_S = 60;
const MAX_CACHED_KEYS = 10_000;

type CachedLookup = { record: ApiKeyRecord | null; expiresAt: number };

/** A bounded map of key hash -> lookup, oldest evicted first, with an injectable clock. */
export class ApiKeyCache {
  readonly #lookups = new Map<string, CachedLookup>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = MAX_CACHED_KEYS,
  ) {}

  get size() {
    return this.#lookups.size;
  }

  get(hash: string): CachedLookup | undefined {
    const lookup = this.#lookups.get(hash);
    if (lookup && lookup.expiresAt <= this.now()) {
      this.#lookups.delete(hash);
      return undefined;
    }
    return lookup;
  }

  set(hash: string, record: ApiKeyRecord | null) {
    this.#lookups.delete(hash);
    if (this.#lookups.size >= this.maxEntries) {
      const oldest = this.#lookups.keys().next().value;
      if (oldest !== undefined) this.#lookups.delete(oldest);
    }
    const ttl = record ? KNOWN_KEY_TTL_MS : UNKNOWN_KEY_TTL_MS;
    this.#lookups.set(hash, { record, expiresAt: this.now() + ttl });
  }
}

/** The Worker's cache: one per isolate, shared by all its requests. */
export const apiKeyCache = new ApiKeyCache(() => Date.now());

const unauthorized = (message: string) => new ApiError("unauthorized", message, CHALLENGE);

const lookUp = async (kv: KVNamespace, hash: string): Promise<ApiKeyRecord | null> => {
  const cached = apiKeyCache.get(hash);
  if (cached) return cached.record;
  const record = await kv.get<ApiKeyRecord>(hash, { type: "json", cacheTtl: KV_CACHE_TTL_S });
  apiKeyCache.set(hash, record);
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
  const record = await lookUp(c.env.API_KEYS, hash);
  if (!record) throw unauthorized("The API key is not valid.");
  c.set("apiKey", { ...record, hash });
  await next();
});
