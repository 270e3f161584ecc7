import { api, type Pet, walkPages } from "./client";

// What the crash test of test/e2e/local/outages.test.ts sends and reads back.

export type Create = { name: string; idempotencyKey?: string };

/** A create of the pet named, with its Idempotency-Key if it has one. */
export const sendCreate = (origin: string, key: string, { name, idempotencyKey }: Create) =>
  api("/v1/pets", {
    origin,
    key,
    method: "POST",
    json: { name, categoryId: 1 },
    headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {},
  });

/** Every stored pet, by name, read through the listing's next links. */
export const storedByName = async (origin: string, key: string) => {
  const byName = new Map<string, Pet[]>();
  for (const pet of (await walkPages(api, "/v1/pets?limit=100", { origin, key })).flat()) {
    byName.set(pet.name, [...(byName.get(pet.name) ?? []), pet]);
  }
  return byName;
};
