// listPets: one page of pets by ascending id, after a signed cursor, for a status filter.
import type { Pet, PetStatus } from "../schemas";
import { readPage } from "./cache";
import { readCursor, writeCursor } from "./cursor";
import { operation } from "./operation";

export type ListPetsInput = { limit: number; status?: PetStatus | undefined; cursor?: string | undefined };
/** The page, the cursor of the next one when more pets remain, and whether it came from the isolate's memory. */
export type PetsPage = { pets: Pet[]; nextCursor?: string; fromCache: boolean };

export const listPets = operation("read", async ({ db, env }, { limit, status, cursor }: ListPetsInput) => {
  const afterId = cursor === undefined ? 0 : await readCursor(env, cursor, status);
  const page = await readPage(db, { afterId, limit, status });
  const result: PetsPage = { pets: page.pets, fromCache: page.fromCache };
  if (page.nextAfterId !== undefined) result.nextCursor = await writeCursor(env, { afterId: page.nextAfterId, status });
  return result;
});
