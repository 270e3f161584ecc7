import type { Pet, PetStatus } from "./schemas";

/**
 * THE SWITCH. The interface has no operation that changes or deletes a pet, and ids
 * only grow, so a stored pet never changes, and neither does a full page of the
 * keyset listing (a new pet gets a higher id and lands after it). Both are served
 * from this isolate's memory with no D1 query. Only a partial last page can grow,
 * and it always goes to D1. The day an update or delete operation is added, turn
 * this off or invalidate here: test/pet-cache.test.ts fails until then.
 */
export const IMMUTABLE_PETS_CACHE = true;

const MAX_PETS = 10_000;
const MAX_PAGES = 1_000;

/** Least recently used entries are evicted first, so memory stays bounded. */
class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V) {
    if (!IMMUTABLE_PETS_CACHE) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, value);
  }
}

/** A full page: its pets, and the cursor of the page after it (a full page always has one). */
export type FullPage = { pets: Pet[]; nextCursor: string };

export const cachedPets = new BoundedCache<number, Pet>(MAX_PETS);
const cachedPages = new BoundedCache<string, FullPage>(MAX_PAGES);

const pageKey = (afterId: number, limit: number, status: PetStatus | undefined) =>
  `${status ?? ""}:${afterId}:${limit}`;

export const cachedPage = (afterId: number, limit: number, status: PetStatus | undefined) =>
  cachedPages.get(pageKey(afterId, limit, status));

export const cachePage = (afterId: number, limit: number, status: PetStatus | undefined, page: FullPage) =>
  cachedPages.set(pageKey(afterId, limit, status), page);
