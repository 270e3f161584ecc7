import { withSession } from "../db/session";
import { deprecatedOperation } from "../deprecation/deprecated-operation";
import { ApiError } from "../http/errors";
import { jsonBody } from "../http/json-body";
import { rateLimit } from "../http/rate-limit";
import { newApp } from "../http/router";
import { validate, validateOptional } from "../http/validate";
import { callerId } from "../keys/api-key";
import { requireApiKey, requireScope } from "../keys/authenticate";
import {
  createPetHeadersSchema,
  listPetsQuerySchema,
  newPetSchema,
  noQuerySchema,
  petParamsSchema,
  sessionHeadersSchema,
} from "../schemas";
import { cachePet, readPage, readPet } from "./cache";
import { readCursor, writeCursor } from "./cursor";
import { insertPet, insertPetOnce } from "./queries";

/** Where the pet routes are mounted (src/app.ts): the listing, and each pet under it. */
export const PETS_PATH = "/v1/pets";

/**
 * RFC 8288: the next page as a query-only reference, which resolves against the request's
 * URL: the same server and path, behind a gateway that mounts the API under a prefix too,
 * with the given query, empty values left out. Nothing of the request's Host, which a client
 * or a proxy may forge, goes into it. The values need no escaping: decimal digits, a status
 * and a base64url cursor are all URL-safe.
 */
const nextLink = (query: Record<string, string | undefined>) => {
  let search = "";
  for (const [name, value] of Object.entries(query)) if (value) search += `${search ? "&" : "?"}${name}=${value}`;
  return `<${search}>; rel="next"`;
};

/** The new pet's Location: relative to the request's URL (.../v1/pets), so under any prefix it is .../v1/pets/{id}. */
const locationOf = (id: number) => `pets/${id}`;

export const petRoutes = newApp()
  .use(requireApiKey, rateLimit, requireScope, validateOptional("header", sessionHeadersSchema), withSession)
  .get("/", validate("query", listPetsQuerySchema), async (c) => {
    const { limit, status, cursor } = c.req.valid("query");
    const afterId = cursor === undefined ? 0 : await readCursor(c.env, cursor, status);
    const page = await readPage(c.get("db"), { afterId, limit, status });
    c.set("isolateCache", page.fromCache ? "hit" : "miss");
    if (page.nextAfterId !== undefined) {
      const cursor = await writeCursor(c.env, { afterId: page.nextAfterId, status });
      c.header("Link", nextLink({ limit: String(limit), status, cursor }));
    }
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
        const pet = await c.get("db").once((db) => insertPet(db, newPet));
        cachePet(pet);
        return c.json(pet, 201, { Location: locationOf(pet.id) });
      }
      const apiKey = c.get("apiKey");
      const { pet, replayed, sameRequest } = await insertPetOnce(c.get("db"), newPet, {
        apiKeyHash: callerId(apiKey, apiKey.hash),
        idempotencyKey,
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
        Location: locationOf(pet.id),
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
      const { pet, fromCache } = await readPet(c.get("db"), petId);
      c.set("isolateCache", fromCache ? "hit" : "miss");
      if (!pet) throw new ApiError("not_found", `No pet has the id ${petId}.`);
      return c.json(pet, 200);
    },
  );
