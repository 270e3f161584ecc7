const MiB = 1024 * 1024;

/**
 * What each of this isolate's caches may hold, estimated in bytes: 15.25 MiB in all, within
 * the budget of 16 MiB that docs/architecture.md states, well under the isolate's 128 MB,
 * which the request being served, the runtime and the code share.
 * test/worker/faults/memory-budget.test.ts fills every cache with the worst case.
 */
export const CACHE_SHARES = {
  pets: 10 * MiB,
  pages: 2 * MiB,
  knownKeys: 2 * MiB,
  keyHashes: MiB / 4,
  unknownKeys: MiB / 4,
  usageCounts: MiB / 4,
  lastUsedDays: MiB / 4,
  cursors: MiB / 4,
} as const satisfies Record<string, number>;

// A generous estimate of what a value takes in V8's heap: strings two bytes a UTF-16
// code unit (astral characters take two), and an allowance for each object, array,
// property and map entry.
const OBJECT_BYTES = 64;
const SLOT_BYTES = 16;
const STRING_BYTES = 24;

/** The estimated heap size of a string, number, boolean, array or plain object. */
export const estimateBytes = (value: unknown): number => {
  if (typeof value === "string") return STRING_BYTES + 2 * value.length;
  if (Array.isArray(value))
    return value.reduce((sum: number, item) => sum + SLOT_BYTES + estimateBytes(item), OBJECT_BYTES);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).reduce(
      (sum, [key, item]) => sum + SLOT_BYTES + estimateBytes(key) + estimateBytes(item),
      OBJECT_BYTES,
    );
  }
  return SLOT_BYTES;
};

/** Every cache made, so that the whole can be measured against the budget. */
const allCaches = new Set<BoundedCache<unknown, unknown>>();
/** The estimated bytes held by each of this isolate's caches, by its share's name. */
export const cachedBytes = (): Partial<Record<CacheShare, number>> => {
  const bytes: Partial<Record<CacheShare, number>> = {};
  for (const cache of allCaches) bytes[cache.share] = (bytes[cache.share] ?? 0) + cache.bytes;
  return bytes;
};
export type CacheShare = keyof typeof CACHE_SHARES;

/**
 * An isolate-memory map that never outgrows `maxBytes` (estimated): the least recently
 * used entries leave first. With `ttlMs`, an entry is fresh for that long after it was
 * set; an expired one is no longer returned by get(), but stays (until it is evicted or
 * set again) so that callers can tell "was set, has expired" from "never set", and can
 * still use it when the source of truth fails (getStale).
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, { value: V; expiresAt: number; bytes: number }>();
  /** The share of the budget (CACHE_SHARES) it holds at most. */
  readonly share: CacheShare;
  readonly #maxBytes: number;
  readonly #ttlMs: number;
  // Read at call time, so that tests can move the clock with fake timers.
  readonly #now: () => number;
  #bytes = 0;
  /** The key set or read last: reading it again moves nothing (a move churns the Map's table, the dearest part of a read). */
  #newest: K | undefined;

  constructor({ share, maxBytes = CACHE_SHARES[share], ttlMs = Infinity, now = () => Date.now() }: CacheOptions) {
    this.share = share;
    this.#maxBytes = maxBytes;
    this.#ttlMs = ttlMs;
    this.#now = now;
    allCaches.add(this as BoundedCache<unknown, unknown>);
  }

  get size() {
    return this.#entries.size;
  }

  /** The estimated bytes of the entries held. */
  get bytes() {
    return this.#bytes;
  }

  /** The fresh value for `key`, which becomes the most recently used entry. */
  get(key: K): V | undefined {
    return this.getStale(key, 0);
  }

  /** The value for `key` if it expired at most `maxStaleMs` ago (or is fresh); it becomes the most recently used entry. */
  getStale(key: K, maxStaleMs: number): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // The clock is read only for an entry that can expire: most never do (pets, pages).
    if (entry.expiresAt !== Infinity && entry.expiresAt + maxStaleMs <= this.#now()) return undefined;
    if (key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      this.#newest = key;
    }
    return entry.value;
  }

  /** Whether `key` was set and has expired since. */
  hasExpired(key: K): boolean {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.expiresAt <= this.#now();
  }

  set(key: K, value: V) {
    this.delete(key);
    const bytes = OBJECT_BYTES + estimateBytes(key) + estimateBytes(value);
    if (bytes > this.#maxBytes) return;
    while (this.#bytes + bytes > this.#maxBytes) {
      const leastRecentlyUsed = this.#entries.keys().next().value as K;
      this.delete(leastRecentlyUsed);
    }
    this.#entries.set(key, { value, expiresAt: this.#now() + this.#ttlMs, bytes });
    this.#newest = key;
    this.#bytes += bytes;
  }

  delete(key: K) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

/** `maxBytes` defaults to the share's size; tests make small caches of their own. */
type CacheOptions = { share: CacheShare; maxBytes?: number; ttlMs?: number; now?: () => number };
