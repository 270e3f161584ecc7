// The OpenAPI description of the operations in ./routes.ts, with the examples that the
// reference page shows and that mocks such as Prism's answer. Only the generator
// (scripts/openapi.ts) and the tests import this. test/worker/document/openapi-examples.test.ts checks every
// example against its schema and replays each error's request for that exact body.

import { UNAVAILABLE_RETRY_AFTER_S } from "../core/error-codes";
import { DEPRECATIONS, deprecationHeaders, removedMessage } from "../deprecation/deprecated-operation";
import { errorExample, json, type OperationSpec, parameters, ref } from "../document/common.openapi";
import type { ResponseHeader } from "../document/headers.openapi";
import { MAX_BODY_BYTES } from "../http/json-body";
import type { Scope } from "../keys/api-key";
import { RATE_LIMIT_PERIOD_S } from "../lib/limiters";
import {
  CURSOR_RULE,
  documentWording,
  ID_RULE,
  LIMIT_RULE,
  listPetsQuerySchema,
  type NewPet,
  type Pet,
  petParamsSchema,
} from "../schemas";

// The reference page's curl line for createPet sends newPet, and creates rex.
const newPet = { name: "Rex", categoryId: 1, status: "available" } satisfies NewPet;
const rex: Pet = { id: 1, ...newPet };
const luna: Pet = { id: 3, name: "Luna", categoryId: 2, status: "available" };

/** One example per body schema, shared by the operations that answer it. */
export const BODY_EXAMPLES = { Pet: rex, Pets: [rex, luna] };

/**
 * On every answer of the pets operations: as stated on their successes, and as optional
 * headers of the shared error responses they refer to (which the documentation routes share).
 */
const PETS_RESPONSE: ResponseHeader[] = ["NoStore", "Bookmark", "ApiKeyExpiration", "RateLimitPolicy"];
const PETS_ERRORS: ResponseHeader[] = ["NoStoreUnderPets", "Bookmark", "ApiKeyExpiration", "RateLimitPolicy"];

/** The 403 of a key without the operation's scope. */
const forbidden = (scope: Scope) =>
  errorExample("forbidden", `This API key does not have the '${scope}' scope, which this operation needs.`);

/** The errors that every operation behind an API key may answer alike. */
const KEYED_ERROR_EXAMPLES = {
  401: errorExample("unauthorized", "Send an API key as 'Authorization: Bearer <key>'."),
  429: errorExample("rate_limited", `Too many requests for this API key; retry in ${RATE_LIMIT_PERIOD_S} seconds.`),
  500: errorExample("internal_error", "The server failed to handle the request."),
  503: errorExample(
    "unavailable",
    `The database is unavailable for a moment; retry in ${UNAVAILABLE_RETRY_AFTER_S} seconds.`,
  ),
};

export const PET_OPERATIONS: OperationSpec[] = [
  {
    method: "get",
    path: "/pets",
    operationId: "listPets",
    summary: "List pets",
    description:
      "Pets by ascending `id`. The body is a plain array; when more pets remain, the `Link` header points to the next page. Following `next` visits every matching pet exactly once, also while others insert. Unknown query parameters are refused.",
    tag: "Pets",
    parameters: parameters({
      in: "query",
      schema: listPetsQuerySchema,
      fields: {
        limit: { description: `The most pets in the page: ${LIMIT_RULE}, in decimal digits.`, example: 2 },
        status: { description: "Keeps only pets with this status.", example: "available" },
        cursor: {
          description: `Where the page starts: ${CURSOR_RULE}, copied as it is, never built by hand. A cursor belongs to its \`status\` filter; \`limit\` may change between pages.`,
          // Signed as the service signs them (with another secret): the page after id 3 of ?status=available.
          example: "MS4zLmF2YWlsYWJsZQ.d8xPZ9wVOKTsm2-Mk5L60-rWOASgG2R3xufQFlQ02sM",
        },
      },
    }),
    requestHeaders: ["Bookmark"],
    responses: { 200: { description: "A page of pets.", content: json(ref("Pets")), headers: ["NextLink"] } },
    errors: [400],
    alwaysHeaders: PETS_RESPONSE,
    errorHeaders: PETS_ERRORS,
    examples: {
      errors: {
        400: errorExample("invalid_request", `Query parameter 'limit' must be ${LIMIT_RULE}.`),
        405: errorExample("method_not_allowed", "DELETE is not allowed on /v1/pets."),
        403: forbidden("read"),
        ...KEYED_ERROR_EXAMPLES,
      },
    },
  },
  {
    method: "post",
    path: "/pets",
    operationId: "createPet",
    summary: "Add a pet",
    description: `The body is UTF-8 JSON sent as \`application/json\`, uncompressed, at most ${MAX_BODY_BYTES} bytes, with no member name repeated.`,
    tag: "Pets",
    requestHeaders: ["IdempotencyKey", "Bookmark"],
    requestBody: "NewPet",
    responses: {
      201: {
        description: "The stored pet, with its `id` (or, for a retried `Idempotency-Key`, the pet it created).",
        content: json(ref("Pet")),
        headers: ["Location", "IdempotentReplayed"],
      },
    },
    errors: [400, 413, 415, 422],
    alwaysHeaders: PETS_RESPONSE,
    errorHeaders: PETS_ERRORS,
    examples: {
      requestBody: newPet,
      errors: {
        400: errorExample("invalid_request", "Body field 'categoryId' is required."),
        405: errorExample("method_not_allowed", "DELETE is not allowed on /v1/pets."),
        413: errorExample("payload_too_large", `The request body must not exceed ${MAX_BODY_BYTES} bytes.`),
        415: errorExample("unsupported_media_type", "The request body must be sent as application/json."),
        422: errorExample(
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different request body; use a new key for a new pet.",
        ),
        403: forbidden("write"),
        ...KEYED_ERROR_EXAMPLES,
      },
    },
  },
  {
    method: "get",
    path: "/pets/{petId}",
    operationId: "getPet",
    summary: "Get a pet (deprecated)",
    description: `Deprecated: it is removed on ${deprecationHeaders(DEPRECATIONS.getPet).Sunset}, and answers 410 from that instant on; before then it also answers 410 during announced brownouts. Use \`GET /pets\` with the \`status\` filter. Every answer, errors included, carries \`Deprecation\`, \`Sunset\` and \`Link\`.`,
    tag: "Pets",
    deprecated: true,
    parameters: parameters({
      in: "path",
      schema: petParamsSchema,
      fields: { petId: { description: `The pet's id. ${documentWording().id}`, example: rex.id } },
    }),
    responses: { 200: { description: "The pet.", content: json(ref("Pet")) } },
    requestHeaders: ["Bookmark"],
    errors: [400, 404, 410],
    alwaysHeaders: ["Deprecation", "Sunset", "SuccessorLink", ...PETS_RESPONSE],
    errorHeaders: ["GetPetDeprecation", "GetPetSunset", "GetPetSuccessorLink", ...PETS_ERRORS],
    examples: {
      errors: {
        400: errorExample("invalid_request", `Path parameter 'petId' must be ${ID_RULE}.`),
        404: errorExample("not_found", "No pet has the id 999999."),
        405: errorExample("method_not_allowed", "DELETE is not allowed on /v1/pets/1."),
        410: errorExample("gone", removedMessage(DEPRECATIONS.getPet)),
        403: forbidden("read"),
        ...KEYED_ERROR_EXAMPLES,
      },
    },
  },
];
