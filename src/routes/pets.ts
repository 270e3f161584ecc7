import { Hono } from "hono";
import { sha256Hex } from "../api-keys";
import { requireApiKey } from "../auth";
import { readCursor, writeCursor } from "../cursor";
import { findPet, insertPet, insertPetOnce, listPets } from "../db/pets";
import { withSession } from "../db/session";
import { deprecatedOperation } from "../deprecation";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { jsonBody } from "../json-body";
import { cachedPage, cachedPet, cachePage, cachePet } from "../pet-cache";
import { rateLimit } from "../rate-limit";
import {
  createPetHeadersSchema,
  listPetsQuerySchema,
  type NewPet,
  newPetSchema,
  noQuerySchema,
  petParamsSchema,
  sessionHeadersSchema,
} from "../schemas";
import { validate, validateOptional } from "../validate";

/** Two bodies are the same request when they validate to the same pet. */
const requestHash = ({ name, categoryId, status }: NewPet) => sha256Hex(JSON.stringify([name, categoryId, status]));

const nextLink = (requestUrl: string, query: Record<string, string | undefined>) => {
  const next = new URL(requestUrl);
  next.search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]),
  ).toString();
  return `<${next}>; rel="next"`;
};

export const petRoutes = new Hono<AppEnv>()
  .use(requireApiKey, rateLimit, validateOptional("header", sessionHeadersSchema), withSession)
  .get("/", validate("query", listPetsQuerySchema), async (c) => {
    const { limit, status, cursor } = c.req.valid("query");
    const afterId = cursor !== undefined ? await readCursor(c.env, cursor, status) : 0;
    let page = cachedPage(afterId, limit, status);
    if (!page) {
      // One row more than the page tells whether a next page exists, in the same query.
      const rows = await listPets(c.var.db(), { afterId, limit: limit + 1, status });
      const pets = rows.slice(0, limit);
      const last = pets.at(-1);
      if (rows.length <= limit || !last) return c.json(pets, 200);
      page = { pets, nextCursor: await writeCursor(c.env, { afterId: last.id, status }) };
      cachePage(afterId, limit, status, page);
    }
    c.header("Link", nextLink(c.req.url, { limit: String(limit), status, cursor: page.nextCursor }));
    return c.json(page.pets, 200);
  })
  .post(
    "/",
    validateOptional("query", noQuerySchema),
    jsonBody,
    validateOptional("header", createPetHeadersSchema),
    validate("json", newPetSchema),
    async (c) => {
      const newPet = c.req.valid("json");
      const idempotencyKey = c.req.valid("header")["idempotency-key"];
      if (idempotencyKey === undefined) {
        const pet = await insertPet(c.var.db(), newPet);
        cachePet(pet);
        return c.json(pet, 201, { Location: `/v1/pets/${pet.id}` });
      }
      const { pet, replayed, sameRequest } = await insertPetOnce(c.var.db(), newPet, {
        apiKeyHash: c.var.apiKey.hash,
        idempotencyKey,
        requestHash: await requestHash(newPet),
        now: Date.now(),
      });
      if (!sameRequest) {
        throw new ApiError(
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different request body; use a new key for a new pet.",
        );
      }
      cachePet(pet);
      return c.json(pet, 201, {
        Location: `/v1/pets/${pet.id}`,
        ...(replayed && { "Idempotent-Replayed": "true" }),
      });
    },
  )
  .get(
    "/:petId",
    deprecatedOperation("getPet"),
    validateOptional("query", noQuerySchema),
    validate("param", petParamsSchema),
    async (c) => {
      const { petId } = c.req.valid("param");
      let pet = cachedPet(petId);
      if (!pet) {
        pet = await findPet(c.var.db(), petId);
        // A missing id is not cached: a pet may be created with it later.
        if (!pet) throw new ApiError("not_found", `No pet has the id ${petId}.`);
        cachePet(pet);
      }
      return c.json(pet, 200);
    },
  );
