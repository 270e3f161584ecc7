// getPet (deprecated): one pet by id, under its deprecation's policy (src/deprecation/).
import { deprecatedCallRefusal } from "../deprecation/deprecated-operation";
import { ApiError } from "../http/errors";
import type { Pet } from "../schemas";
import { readPet } from "./cache";
import { operation } from "./operation";

export type GetPetInput = { petId: number };
export type FoundPet = { pet: Pet; fromCache: boolean };

export const getPet = operation("read", async (context, { petId }: GetPetInput): Promise<FoundPet> => {
  const refused = deprecatedCallRefusal("getPet", context);
  if (refused) throw refused;
  const { pet, fromCache } = await readPet(context.db, petId);
  if (!pet) throw new ApiError("not_found", `No pet has the id ${petId}.`);
  return { pet, fromCache };
});
