/**
 * An isolate-memory map that never outgrows `maxEntries`: the least recently used
 * entry leaves first. With `ttlMs`, an entry is fresh for that long after it was set;
 * an expired one is no longer returned by get(), but stays (until it is evicted or set
 * again) so that callers can tell "was set, has expired" from "never set".
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, { value: V; expiresAt: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  // Read at call time, so that tests can move the clock with fake timers.
  readonly #now: () => number;

  constructor({ maxEntries, ttlMs = Infinity, now = () => Date.now() }: CacheOptions) {
    this.#maxEntries = maxEntries;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  get size() {
    return this.#entries.size;
  }

  /** The fresh value for `key`, which becomes the most recently used entry. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry || entry.expiresAt <= this.#now()) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Whether `key` was set and has expired since. */
  hasExpired(key: K): boolean {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.expiresAt <= this.#now();
  }

  set(key: K, value: V) {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const leastRecentlyUsed = this.#entries.keys().next().value;
      if (leastRecentlyUsed !== undefined) this.#entries.delete(leastRecentlyUsed);
    }
    this.#entries.set(key, { value, expiresAt: this.#now() + this.#ttlMs });
  }

  delete(key: K) {
    this.#entries.delete(key);
  }
}

type CacheOptions = { maxEntries: number; ttlMs?: number; now?: () => number };
