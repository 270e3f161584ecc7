// The HTTP door of the three operations: each route checks the wire (query, path, headers,
// body) with the zod schemas, calls its operation, and writes its value as HTTP says it.

import { createPet } from "../core/create-pet";
import { getPet } from "../core/get-pet";
import { listPets } from "../core/list-pets";
import { requireApiKey } from "../http/api-key-auth";
import { beginCall, refuseOverLimit } from "../http/begin-call";
import { cachedJsonAnswer, jsonAnswer } from "../http/json-answer";
import { jsonBody } from "../http/json-body";
import { operationContext } from "../http/operation-context";
import { newApp } from "../http/router";
import { validate, validateOptional } from "../http/validate";
import { createPetHeadersSchema, listPetsQuerySchema, newPetSchema, noQuerySchema, petParamsSchema } from "../schemas";
import { allowedBy, valueOrRefusal } from "./run-operation";

declare module "hono" {
  interface ContextVariableMap {
    /** Whether a read of pets was answered from this isolate's memory, for the access line. */
    isolateCache: "hit" | "miss";
  }
}

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
  .use(requireApiKey, beginCall, refuseOverLimit)
  .get("/", allowedBy(listPets), validate("query", listPetsQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const page = valueOrRefusal(await listPets.run(operationContext(c), query));
    c.set("isolateCache", page.fromCache ? "hit" : "miss");
    const headers =
      page.nextCursor === undefined
        ? undefined
        : { Link: nextLink({ limit: String(query.limit), status: query.status, cursor: page.nextCursor }) };
    return page.fromCache ? cachedJsonAnswer(c, page.pets, 200, headers) : jsonAnswer(c, page.pets, 200, headers);
  })
  .post(
    "/",
    allowedBy(createPet),
    validateOptional("query", noQuerySchema),
    jsonBody,
    validateOptional("header", createPetHeadersSchema),
    validate("json", newPetSchema),
    async (c) => {
      const input = { pet: c.req.valid("json"), idempotencyKey: c.req.valid("header")["idempotency-key"] };
      const { pet, replayed } = valueOrRefusal(await createPet.run(operationContext(c), input));
      return jsonAnswer(c, pet, 201, {
        Location: locationOf(pet.id),
        ...(replayed && { "Idempotent-Replayed": "true" }),
      });
    },
  )
  .get(
    "/:petId",
    allowedBy(getPet),
    validateOptional("query", noQuerySchema),
    validate("param", petParamsSchema),
    async (c) => {
      const { pet, fromCache } = valueOrRefusal(await getPet.run(operationContext(c), c.req.valid("param")));
      c.set("isolateCache", fromCache ? "hit" : "miss");
      return fromCache ? cachedJsonAnswer(c, pet, 200) : jsonAnswer(c, pet, 200);
    },
  );
