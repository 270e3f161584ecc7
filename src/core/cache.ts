import type { SegmentSessions } from "../db/segment-sessions";
import { segmentOf } from "../db/segments";
import { BoundedCache } from "../lib/bounded-cache";
import type { Pet, PetStatus } from "../schemas";
import { walkPage } from "./page-walk";
import { selectPet } from "./queries";

/**
 * THE SWITCH. The interface has no operation that changes or deletes a pet, and ids
 * only grow, so a stored pet never changes, and neither does a full page of the keyset
 * listing (a new pet gets a higher id and lands after it). Both are served from this
 * isolate's memory with no D1 query. Only a partial last page can grow, and it always
 * goes to D1. Segments change none of this: a full page that crosses into a segment has its
 * first rows from one already closed (./page-walk.ts), and the next segment's later pets come after it. The day an update or delete operation is added, turn this off or
 * invalidate here: test/worker/pets/pet-cache.test.ts fails until then.
 */
export const IMMUTABLE_PETS_CACHE = true;

/** A page of the listing, and the id the page after it starts after, when there is one. */
type Page = { pets: Pet[]; nextAfterId?: number };
type PagePosition = { afterId: number; limit: number; status: PetStatus | undefined };
/**
 * A full page as cached: its pets themselves, so that a page from memory costs one lookup,
 * not one per pet. They are in `pets` too, for getPet; each share counts them, so the
 * budget holds whichever keeps them longer.
 */
type CachedPage = { pets: Pet[] };

const pets = new BoundedCache<number, Pet>({ share: "pets" });
const fullPages = new BoundedCache<string, CachedPage>({ share: "pages" });

export const cachePet = (pet: Pet) => {
  if (IMMUTABLE_PETS_CACHE) pets.set(pet.id, pet);
};

/** Whether an answer came from this isolate's memory, for the request's log line. */
type Cached<T> = T & { fromCache: boolean };

/**
 * The pet with this id, from this isolate or else from the segment that owns the id; an id
 * that no segment owns is no pet, with no query (a missing id is not cached: it may be created later).
 */
export const readPet = async (db: SegmentSessions, id: number): Promise<Cached<{ pet: Pet | undefined }>> => {
  const cached = pets.get(id);
  if (cached) return { pet: cached, fromCache: true };
  const position = segmentOf(id);
  if (position >= db.count) return { pet: undefined, fromCache: false };
  const pet = await db.segment(position).idempotent((session) => selectPet(session, id));
  if (pet) cachePet(pet);
  return { pet, fromCache: false };
};

/** A full page read before. */
const cachedPage = (key: string): Page | undefined => {
  const page = fullPages.get(key);
  return page && { pets: page.pets, nextAfterId: page.pets.at(-1)?.id };
};

/** A page from this isolate when it is a full page read before, else from D1. */
export const readPage = async (db: SegmentSessions, position: PagePosition): Promise<Cached<Page>> => {
  const { afterId, limit, status } = position;
  const key = `${status ?? ""}:${afterId}:${limit}`;
  const cached = cachedPage(key);
  if (cached) return { ...cached, fromCache: true };
  // One row more than the page tells whether a next page exists, in the same query.
  const { rows, onwardAfterId } = await walkPage(db, { afterId, limit: limit + 1, status });
  const page: Page = { pets: rows.slice(0, limit) };
  const last = page.pets.at(-1);
  if (rows.length <= limit || !last) {
    return onwardAfterId === undefined
      ? { ...page, fromCache: false }
      : { ...page, nextAfterId: onwardAfterId, fromCache: false };
  }
  page.pets.forEach(cachePet);
  if (IMMUTABLE_PETS_CACHE) fullPages.set(key, { pets: page.pets });
  return { ...page, nextAfterId: last.id, fromCache: false };
};
