import * as z from "zod/mini";
import { hasMisleadingCharacter, hasVisibleCharacter } from "./lib/display-text";

// The wire contract. Everything else (TypeScript types, request validation, the
// database enum, the OpenAPI document) derives from these schemas.

export const PET_STATUSES = ["available", "pending", "sold"] as const;
const DEFAULT_PET_STATUS: PetStatus = "available";
export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;
export const NAME_MAX_LENGTH = 255;

/**
 * Error messages are written here, next to the rule they describe, so that the
 * validation hook only has to name the field: "Body field 'limit' must be ...".
 */
const expected = (description: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${description}`),
});

export const petStatusSchema = z.enum(PET_STATUSES, expected(`one of ${PET_STATUSES.join(", ")}`));

// z.int() accepts only safe integers, so an id that JSON would round is refused
// instead of silently becoming another id.
export const ID_RULE = `a positive integer no greater than ${Number.MAX_SAFE_INTEGER}`;
export const idSchema = z.int(expected(ID_RULE)).check(z.positive(expected(ID_RULE)));

// Code points, as SQLite's length() counts. Well-formed UTF-16, since a lone surrogate
// cannot be stored as UTF-8 text. What shows as something else, or as nothing: src/lib/display-text.ts.
const isValidName = (name: string) => {
  const length = [...name].length;
  return (
    length >= 1 &&
    length <= NAME_MAX_LENGTH &&
    name.isWellFormed() &&
    hasVisibleCharacter(name) &&
    !hasMisleadingCharacter(name)
  );
};
const NAME_RULE = `a string of 1 to ${NAME_MAX_LENGTH} characters with at least one visible character, and without control characters, bidirectional controls or line and paragraph separators`;
const nameSchema = z.string(expected(NAME_RULE)).check(z.refine(isValidName, expected(NAME_RULE)));

export const petSchema = z.object({
  id: idSchema,
  name: nameSchema,
  categoryId: idSchema,
  status: petStatusSchema,
});

export const newPetSchema = z.strictObject(
  {
    name: nameSchema,
    categoryId: idSchema,
    status: z._default(petStatusSchema, DEFAULT_PET_STATUS),
  },
  { error: "must be a JSON object" },
);

// RFC 8941 sf-string ("quoted", with \\ and \" escapes) or a bare token, as the IETF
// Idempotency-Key draft allows both in practice; the key is the unquoted value. One
// expression, counting characters after unquoting, so that the OpenAPI document can
// state the rule exactly as its pattern.
const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** The header as sent: quoted, with every character escaped. */
export const IDEMPOTENCY_HEADER_MAX_LENGTH = 2 + 2 * IDEMPOTENCY_KEY_MAX_LENGTH;
const KEY_LENGTH = `{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}`;
export const IDEMPOTENCY_KEY = new RegExp(
  String.raw`^(?:"(?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])${KEY_LENGTH}"|[\x21\x23-\x7E]${KEY_LENGTH})$`,
);
const IDEMPOTENCY_KEY_RULE = `1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters, bare or as a quoted string`;
const unquote = (value: string) => (value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value);

// D1 bookmarks as D1 issues them (anything else would fail inside D1 as a 5xx), one per
// segment for at most two segments, the newer segment first (src/db/segment-sessions.ts):
// segment 0's bare, a later segment's after `s`, its position in four digits and a colon. A
// later segment's sorts after any of segment 0, and a newer bookmark of one segment after an
// older one: a client keeps the newest of two as strings compare (client/src/answer.ts).
const D1_BOOKMARK = "[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}";
export const BOOKMARK = new RegExp(`^(?:s\\d{4}:${D1_BOOKMARK},)?(?:s\\d{4}:)?${D1_BOOKMARK}$`);
export const BOOKMARK_LENGTH = 2 * (6 + 3 * 9 + 32) + 1;
export const BOOKMARK_RULE = "the x-d1-bookmark of a previous response";

/** Headers every pets operation reads. */
export const sessionHeadersSchema = z.object({
  "x-d1-bookmark": z.optional(z.string().check(z.regex(BOOKMARK, expected(BOOKMARK_RULE)))),
});

/** An Idempotency-Key as sent: create_pet's idempotencyKey is held to the header's rules (src/mcp/tools.ts). */
export const idempotencyKeySchema = z
  .string(expected(IDEMPOTENCY_KEY_RULE))
  .check(z.regex(IDEMPOTENCY_KEY, expected(IDEMPOTENCY_KEY_RULE)));

/** Headers createPet reads beyond those of every pets operation (validated once, by the router). */
export const createPetHeadersSchema = z.object({
  "idempotency-key": z.optional(z.pipe(idempotencyKeySchema, z.transform(unquote))),
});

/** A page of the listing. Only the OpenAPI document uses it: pure, so the bundle leaves it out. */
export const petsSchema = /* @__PURE__ */ z.array(petSchema);

/** In characters: the tests hold every message to 1 KiB of UTF-8, which is no more. */
export const ERROR_MESSAGE_MAX_LENGTH = 1024;
export const errorSchema = z.object({
  code: z.string(),
  message: z.string().check(z.maxLength(ERROR_MESSAGE_MAX_LENGTH)),
  // An HTTP status code: three digits, 1xx to 5xx (RFC 9110, section 15).
  status: z.int().check(z.gte(100), z.lte(599)),
});

/** A path or query value: a decimal string, validated as the integer it spells. */
const integerString = <T extends z.ZodMiniType<number, number>>(rule: string, schema: T) =>
  z.pipe(z.pipe(z.string().check(z.regex(/^[0-9]+$/, expected(rule))), z.transform(Number)), schema);

export const CURSOR_RULE = "the cursor of a next link from a previous page";
/** A payload of up to 64 base64url characters, a dot, and a signature of 43 (src/core/cursor.ts). */
export const CURSOR_MAX_LENGTH = 64 + 1 + 43;
const CURSOR_SIGNATURE_LENGTH = 43;
export const CURSOR_SHAPE = new RegExp(
  `^[A-Za-z0-9_-]{1,${CURSOR_MAX_LENGTH - 1 - CURSOR_SIGNATURE_LENGTH}}\\.[A-Za-z0-9_-]{${CURSOR_SIGNATURE_LENGTH}}$`,
);
export const LIMIT_RULE = `an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`;
export const limitSchema = z
  .int(expected(LIMIT_RULE))
  .check(z.gte(LIST_LIMIT.min, expected(LIMIT_RULE)), z.lte(LIST_LIMIT.max, expected(LIMIT_RULE)));
export const cursorSchema = z
  .string(expected(CURSOR_RULE))
  .check(
    z.minLength(1, expected(CURSOR_RULE)),
    z.maxLength(CURSOR_MAX_LENGTH, expected(CURSOR_RULE)),
    z.regex(CURSOR_SHAPE, expected(CURSOR_RULE)),
  );
export const listPetsQuerySchema = z.strictObject({
  limit: z._default(integerString(LIMIT_RULE, limitSchema), LIST_LIMIT.default),
  status: z.optional(petStatusSchema),
  cursor: z.optional(cursorSchema),
});

/** The query of an operation that reads no query parameter: any is refused, as on listPets. */
export const noQuerySchema = z.strictObject({});

export const petParamsSchema = z.object({
  petId: integerString(ID_RULE, idSchema),
});

/**
 * The OpenAPI document's wording of the wire types, their fields and the rules above
 * (read by scripts/openapi.ts). A function, so that the Worker's bundle, which never
 * calls it, leaves the text out.
 */
export const documentWording = () => {
  const id = `An id is ${ID_RULE} (2^53-1, the largest integer that a JSON client in JavaScript holds exactly).`;
  const petFields = {
    name: `The animal's name: ${NAME_RULE} (characters are Unicode code points; a visible character is one that is not white space, a default-ignorable format or filler character such as U+200B or U+3164, U+2800 or a lone combining mark; bidirectional controls are U+202A-U+202E and U+2066-U+2069). Names in every script are accepted.`,
    categoryId: `The category the animal belongs to. ${id}`,
  };
  return {
    id,
    idempotencyKey: `${IDEMPOTENCY_KEY_RULE} (RFC 8941; a quoted key is counted unquoted and unescaped)`,
    schemas: {
      Pet: {
        description: "An animal offered for sale.",
        fields: {
          id: `Assigned by the service on creation, never reused. ${id}`,
          ...petFields,
          status: "Availability.",
        },
      },
      NewPet: {
        description: "The creation payload: a Pet without `id`. Unknown fields are refused.",
        fields: { ...petFields, status: `Availability; \`${DEFAULT_PET_STATUS}\` when omitted.` },
      },
      PetStatus: { description: "The availability of an animal." },
      Pets: { description: "A page of pets, by ascending `id`." },
      Error: {
        description: "The body of every error response.",
        fields: {
          code: "Machine-readable error code.",
          message: "Human-readable description, naming the offending field or parameter.",
          status: "The HTTP status code, repeated.",
        },
      },
    },
  };
};

export type PetStatus = (typeof PET_STATUSES)[number];
export type Pet = z.output<typeof petSchema>;
export type NewPet = z.output<typeof newPetSchema>;
export type ErrorBody = z.output<typeof errorSchema>;
