import { and, asc, eq, gt } from "drizzle-orm";
import type { NewPet, Pet, PetStatus } from "../schemas";
import type { Database } from "./client";
import { pets } from "./schema";

/** Keyset pagination: the pets after `afterId`, by ascending id (no OFFSET, so deep pages cost the same). */
export const listPets = (
  db: Database,
  { afterId, limit, status }: { afterId: number; limit: number; status: PetStatus | undefined },
): Promise<Pet[]> =>
  db
    .select()
    .from(pets)
    .where(and(gt(pets.id, afterId), status ? eq(pets.status, status) : undefined))
    .orderBy(asc(pets.id))
    .limit(limit);

export const findPet = (db: Database, id: number): Promise<Pet | undefined> =>
  db.select().from(pets).where(eq(pets.id, id)).get();

export const insertPet = (db: Database, pet: NewPet): Promise<Pet> => db.insert(pets).values(pet).returning().get();
