import { asc, eq } from "drizzle-orm";
import type { ListPetsQuery, NewPet, Pet } from "../schemas";
import type { Database } from "./client";
import { pets } from "./schema";

export const listPets = (db: Database, { limit, status }: ListPetsQuery): Promise<Pet[]> =>
  db
    .select()
    .from(pets)
    .where(status ? eq(pets.status, status) : undefined)
    .orderBy(asc(pets.id))
    .limit(limit);

export const findPet = (db: Database, id: number): Promise<Pet | undefined> =>
  db.select().from(pets).where(eq(pets.id, id)).get();

export const insertPet = (db: Database, pet: NewPet): Promise<Pet> => db.insert(pets).values(pet).returning().get();
