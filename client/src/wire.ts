// Generated from openapi.json by `npm run client:types` (scripts/client-types.ts): do not edit.
/**
 * The availability of an animal.
 */
export type PetStatus = ("available" | "pending" | "sold")

/**
 * An animal offered for sale.
 */
export interface Pet {
/**
 * Assigned by the service on creation, never reused. An id is a positive integer no greater than 9007199254740991 (2^53-1, the largest integer that a JSON client in JavaScript holds exactly).
 */
id: number
/**
 * The animal's name: a string of 1 to 255 characters with at least one visible character, and without control characters, bidirectional controls or line and paragraph separators (characters are Unicode code points; a visible character is one that is not white space, a default-ignorable format or filler character such as U+200B or U+3164, U+2800 or a lone combining mark; bidirectional controls are U+202A-U+202E and U+2066-U+2069). Names in every script are accepted.
 */
name: string
/**
 * The category the animal belongs to. An id is a positive integer no greater than 9007199254740991 (2^53-1, the largest integer that a JSON client in JavaScript holds exactly).
 */
categoryId: number
status: PetStatus
}
/**
 * The creation payload: a Pet without `id`. Unknown fields are refused.
 */
export interface NewPet {
/**
 * The animal's name: a string of 1 to 255 characters with at least one visible character, and without control characters, bidirectional controls or line and paragraph separators (characters are Unicode code points; a visible character is one that is not white space, a default-ignorable format or filler character such as U+200B or U+3164, U+2800 or a lone combining mark; bidirectional controls are U+202A-U+202E and U+2066-U+2069). Names in every script are accepted.
 */
name: string
/**
 * The category the animal belongs to. An id is a positive integer no greater than 9007199254740991 (2^53-1, the largest integer that a JSON client in JavaScript holds exactly).
 */
categoryId: number
status?: PetStatus
}
/**
 * The body of every error response.
 */
export interface ErrorBody {
/**
 * Machine-readable error code.
 */
code: ("invalid_request" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "gone" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "rate_limited" | "internal_error" | "unavailable")
/**
 * Human-readable description, naming the offending field or parameter.
 */
message: string
/**
 * The HTTP status code, repeated.
 */
status: number
}
/**
 * The query of listPets.
 */
export interface ListPetsQuery {
/**
 * The most pets in the page: an integer from 1 to 100, in decimal digits.
 */
limit?: number
status?: PetStatus
/**
 * Where the page starts: the cursor of a next link from a previous page, copied as it is, never built by hand. A cursor belongs to its `status` filter; `limit` may change between pages.
 */
cursor?: string
}

/** When getPet is removed (its Sunset header). */
export const GET_PET_SUNSET = "Thu, 05 Dec 2030 00:00:00 GMT";
/** Every PetStatus, for the client to check answers with. */
export const PET_STATUSES: readonly string[] = ["available","pending","sold"];
/** Every code of the API's Error body, for the client to tell them from codes the API does not send. */
export const ERROR_CODES: readonly string[] = ["invalid_request","unauthorized","forbidden","not_found","method_not_allowed","gone","payload_too_large","unsupported_media_type","idempotency_key_reused","rate_limited","internal_error","unavailable"];
/** An x-d1-bookmark as the API takes it (the Bookmark parameter). */
export const BOOKMARK = new RegExp("^(?:s\\d{4}:[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32},)?(?:s\\d{4}:)?[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$");
/** An Idempotency-Key as the API takes it (the IdempotencyKey parameter). */
export const IDEMPOTENCY_KEY = new RegExp("^(?:\"(?:[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\[\"\\\\]){1,255}\"|[\\x21\\x23-\\x7E]{1,255})$");
