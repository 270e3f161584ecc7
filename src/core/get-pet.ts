// getPet (deprecated): one pet by id, under its deprecation's policy (src/deprecation/).
import { goneMessage } from "../deprecation/deprecated-operation";
import type { Pet } from "../schemas";
import { readPet } from "./cache";
import { operation } from "./operation";
import { Refusal } from "./refusal";

export type GetPetInput = { petId: number };
export type FoundPet = { pet: Pet; fromCache: boolean };

export const getPet = operation("read", async (context, { petId }: GetPetInput): Promise<FoundPet> => {
  const gone = goneMessage("getPet", context);
  if (gone !== undefined) throw new Refusal("gone", gone);
  const { pet, fromCache } = await readPet(context.db, petId);
  if (!pet) throw new Refusal("not_found", `No pet has the id ${petId}.`);
  return { pet, fromCache };
});
