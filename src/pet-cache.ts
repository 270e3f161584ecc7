import { BoundedCache } from "./bounded-cache";
import type { Pet, PetStatus } from "./schemas";

/**
 * THE SWITCH. The interface has no operation that changes or deletes a pet, and ids
 * only grow, so a stored pet never changes, and neither does a full page of the keyset
 * listing (a new pet gets a higher id and lands after it). Both are served from this
 * isolate's memory with no D1 query. Only a partial last page can grow, and it always
 * goes to D1. The day an update or delete operation is added, turn this off or
 * invalidate here: test/pet-cache.test.ts fails until then.
 */
export const IMMUTABLE_PETS_CACHE = true;

/** A full page: its pets, and the cursor of the page after it (a full page always has one). */
export type FullPage = { pets: Pet[]; nextCursor: string };

const pets = new BoundedCache<number, Pet>({ maxEntries: 10_000 });
const pages = new BoundedCache<string, FullPage>({ maxEntries: 1_000 });

const pageKey = (afterId: number, limit: number, status: PetStatus | undefined) =>
  `${status ?? ""}:${afterId}:${limit}`;

export const cachedPet = (id: number) => pets.get(id);

export const cachePet = (pet: Pet) => {
  if (IMMUTABLE_PETS_CACHE) pets.set(pet.id, pet);
};

export const cachedPage = (afterId: number, limit: number, status: PetStatus | undefined) =>
  pages.get(pageKey(afterId, limit, status));

export const cachePage = (afterId: number, limit: number, status: PetStatus | undefined, page: FullPage) => {
  if (IMMUTABLE_PETS_CACHE) pages.set(pageKey(afterId, limit, status), page);
};
