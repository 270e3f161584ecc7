// The examples of openapi.json, in one table: what the reference page shows and what
// tools such as Prism's mock answer. Typed from the zod schemas, checked against them
// and replayed against the app where a request can provoke them (test/openapi.test.ts).
// Kept few and short: the Worker bundles the document.
import type * as z from "zod/mini";
import { REMOVED_MESSAGE } from "../src/deprecation";
import { ERROR_STATUS, type ErrorCode } from "../src/errors";
import { MAX_BODY_BYTES } from "../src/json-body";
import { RATE_LIMIT_PERIOD_S } from "../src/rate-limit";
import { ID_RULE, LIMIT_RULE, type ListPetsQuery, type NewPet, type newPetSchema, type Pet } from "../src/schemas";

/** An Error body whose code and status agree, as ERROR_STATUS pairs them. */
type ErrorExample = {
  [C in ErrorCode]: { code: C; message: string; status: (typeof ERROR_STATUS)[C] };
}[ErrorCode];

const error = <C extends ErrorCode>(code: C, message: string) => ({ code, message, status: ERROR_STATUS[code] });

// The reference page's curl line for createPet sends it, and creates this pet.
const newPet = { name: "Rex", categoryId: 1, status: "available" } satisfies NewPet;
const rex: Pet = { id: 1, ...newPet };
const luna: Pet = { id: 3, name: "Luna", categoryId: 2, status: "available" };

/** Parameters, by name, as their schemas describe them (`limit` and `petId` are integers). */
export const PARAMETER_EXAMPLES = {
  limit: 2,
  status: "available",
  // Shaped as the service signs them (with another secret): the page after id 3 of ?status=available.
  cursor: "MS4zLmF2YWlsYWJsZQ.d8xPZ9wVOKTsm2-Mk5L60-rWOASgG2R3xufQFlQ02sM",
  petId: rex.id,
} satisfies Required<ListPetsQuery> & { petId: Pet["id"] };

const BOOKMARK = "00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683";

export const REQUEST_HEADER_EXAMPLES = {
  Bookmark: BOOKMARK,
  IdempotencyKey: '"7169c937-fb9c-4af5-b184-1dde0edaad3d"',
  IfNoneMatch: '"4f95e3708d42eba39c4c7db30ea333e2a73f4e85b9fb11c7c3b21c046281b2f2"',
};

/**
 * The response headers of the pets operations whose schema has no `const` (which is its
 * own example): a mock such as Prism's answers with these rather than with values that
 * it would then find invalid itself.
 */
export const RESPONSE_HEADER_EXAMPLES = {
  Location: `/v1/pets/${rex.id}`,
  NextLink: `<https://petstore-production.example.workers.dev/v1/pets?${new URLSearchParams({
    limit: String(PARAMETER_EXAMPLES.limit),
    status: PARAMETER_EXAMPLES.status,
    cursor: PARAMETER_EXAMPLES.cursor,
  })}>; rel="next"`,
  SuccessorLink: '</v1/pets>; rel="successor-version"',
  WWWAuthenticate: 'Bearer realm="petstore"',
  Allow: "GET, HEAD, POST",
  RequestId: "0b9a4e43-6f0c-4d6e-9c55-2f1e8d7a3b21",
  Bookmark: BOOKMARK,
};

/** The errors that every operation behind an API key may answer alike. */
const KEYED_ERRORS = {
  401: error("unauthorized", "Send an API key as 'Authorization: Bearer <key>'."),
  429: error("rate_limited", `Too many requests for this API key; retry in ${RATE_LIMIT_PERIOD_S} seconds.`),
  500: error("internal_error", "The server failed to handle the request."),
};

/**
 * A successful answer's body, by its schema in components.schemas: one example each,
 * shared by the operations that answer it.
 */
export const BODY_EXAMPLES: { Pet: Pet; Pets: Pet[] } = { Pet: rex, Pets: [rex, luna] };

export type OperationExamples = {
  requestBody?: z.input<typeof newPetSchema>;
  /** By status: the Error body of each error the operation answers. */
  errors: Record<number, ErrorExample>;
};

/** By operationId: only the pets operations, which tools call. */
export const OPERATION_EXAMPLES: Record<"listPets" | "createPet" | "getPet", OperationExamples> = {
  listPets: {
    errors: {
      400: error("invalid_request", `Query parameter 'limit' must be ${LIMIT_RULE}.`),
      405: error("method_not_allowed", "DELETE is not allowed on /v1/pets."),
      ...KEYED_ERRORS,
    },
  },
  createPet: {
    requestBody: newPet,
    errors: {
      400: error("invalid_request", "Body field 'categoryId' is required."),
      405: error("method_not_allowed", "DELETE is not allowed on /v1/pets."),
      413: error("payload_too_large", `The request body must not exceed ${MAX_BODY_BYTES} bytes.`),
      415: error("unsupported_media_type", "The request body must be sent as application/json."),
      422: error(
        "idempotency_key_reused",
        "This Idempotency-Key was already used with a different request body; use a new key for a new pet.",
      ),
      ...KEYED_ERRORS,
    },
  },
  getPet: {
    errors: {
      400: error("invalid_request", `Path parameter 'petId' must be ${ID_RULE}.`),
      404: error("not_found", "No pet has the id 999999."),
      410: error("gone", REMOVED_MESSAGE),
      405: error("method_not_allowed", "DELETE is not allowed on /v1/pets/1."),
      ...KEYED_ERRORS,
    },
  },
};
