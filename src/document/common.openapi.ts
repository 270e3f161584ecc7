// What every operation's OpenAPI description shares: the API's own text, its servers
// and the error answers (the headers are in ./headers.openapi.ts). Imported by the
// generator (scripts/openapi.ts) only, never by the Worker, so none of it reaches the bundle.
import type { OpenAPIV3_1 } from "openapi-types";
import type { $ZodType } from "zod/v4/core";
import { ERROR_STATUS, type ErrorCode } from "../core/error-codes";
import { DEPRECATIONS, deprecationHeaders } from "../deprecation/deprecated-operation";
import { MAX_BODY_BYTES } from "../http/json-body";
import type { RequestHeader, ResponseHeader } from "./headers.openapi";

const ERROR_LIST = Object.entries(ERROR_STATUS)
  .map(([code, status]) => `\`${code}\` (${status})`)
  .join(", ");

export const API = {
  title: "Petstore edge API",
  version: "1.0.0",
  // A private API, as the client's package (UNLICENSED) is: SPDX's form for a license it does not list.
  license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
  contact: { name: "The Petstore edge API team" },
  description: `A store of animals offered for sale, on Cloudflare Workers.

Every operation but this document and its reference page needs an API key, sent as \`Authorization: Bearer <key>\`.

Errors: every error has the \`Error\` body, whose \`status\` repeats the HTTP status and whose \`code\` is one of ${ERROR_LIST}. A path that is not in this document is answered with 404 \`not_found\` (\`#/components/responses/NotFound\`), after the checks that every pets operation makes first when it is under \`/pets/\`: 401 without a valid key, 429 over the rate limit, 403 for a key without the method's scope (\`read\` for \`GET\`, \`write\` otherwise), 503 when the API key store fails, 400 for a malformed \`x-d1-bookmark\`. A path with a method it lacks is answered with 405 and \`Allow\` (to any valid key, whatever its scopes). \`HEAD\` is answered like \`GET\`, without a body.

Pagination: \`GET /pets\` answers a plain array; while more pets remain, \`Link: <?{query}>; rel="next"\` gives the next page, as a reference relative to the request's URL.`,
};

// Every path is relative to a server, and every server ends with the API's prefix,
// /v1. Deployed: the workers.dev addresses that `wrangler deploy --env <name>` publishes.
// `x-internal` (read by documentation tools and the OWASP ruleset) marks who each is for.
const ACCOUNT = { account: { default: "example", description: "The Cloudflare account's workers.dev subdomain." } };
export const SERVERS = [
  {
    url: "https://petstore-production.{account}.workers.dev/v1",
    description: "Production",
    variables: ACCOUNT,
    "x-internal": false,
  },
  {
    url: "https://petstore-staging.{account}.workers.dev/v1",
    description: "Staging",
    variables: ACCOUNT,
    "x-internal": true,
  },
  { url: "http://localhost:8787/v1", description: "Local development (`npm run dev`)", "x-internal": true },
] satisfies (OpenAPIV3_1.ServerObject & { "x-internal": boolean })[];

export const OPENAPI_VERSION = "3.1.1";

export const TAGS = [
  { name: "Pets", description: "Animals offered for sale." },
  { name: "Documentation", description: "This document and its reference page." },
];

export const BEARER_AUTH = {
  type: "http",
  scheme: "bearer",
  description: `An API key: \`ps_live_\` in production or \`ps_test_\` elsewhere, then 43 random base-62 characters and a checksum of 6 (the CRC32 of all before it, in base 62; keys issued before checksums have none). Issued with \`npm run key:create\` (see the README). A key has scopes: \`read\` (listPets, getPet) and \`write\` (createPet); a key without the scope an operation needs gets 403 \`forbidden\`. A key may expire: from that instant on it gets 401, with a message that says so. A token whose checksum does not match is refused 401 at once.`,
} as const;

/** Every error status, as a shared response: its component name, what it means, its headers. */
export const ERROR_RESPONSES: Record<number, { name: string; description: string; headers?: ResponseHeader[] }> = {
  400: {
    name: "BadRequest",
    description:
      "A query, path or body value breaks the rules, a field or parameter is unknown or repeated, the body is not UTF-8 or not JSON, or an object in it repeats a member name. The message names the first three offending ones and counts the rest; it is at most 1 KiB.",
  },
  401: {
    name: "Unauthorized",
    description: "Missing, malformed, unknown or expired API key.",
    headers: ["WWWAuthenticate", "NoStoreUnderPets"],
  },
  403: {
    name: "Forbidden",
    description:
      "The API key is valid but lacks the scope this operation needs (`read` to list and fetch pets, `write` to create them); the message names it.",
    headers: ["NoStoreUnderPets"],
  },
  404: {
    name: "NotFound",
    description: "No such pet; also the answer to any path that is not in this document.",
    // Under /v1/pets/, a path not in the document is answered past authentication and the rate limit.
    headers: ["NoStoreUnderPets", "Bookmark", "ApiKeyExpiration", "RateLimitPolicy"],
  },
  405: {
    name: "MethodNotAllowed",
    description:
      "The path exists, but not with this method; `Allow` lists those it has. (OpenAPI describes responses per operation: this one is the path's.)",
    headers: ["Allow", "ApiKeyExpiration", "RateLimitPolicy"],
  },
  410: {
    name: "Gone",
    description: `The operation is switched off: for good from its \`Sunset\` instant (${deprecationHeaders(DEPRECATIONS.getPet).Sunset}), or for one of the brownouts announced before then. The message names the sunset and the successor, \`GET /pets\` with the \`status\` filter.`,
  },
  413: {
    name: "PayloadTooLarge",
    description: `The request body is over ${MAX_BODY_BYTES} bytes, whether sent with a Content-Length or chunked.`,
  },
  415: {
    name: "UnsupportedMediaType",
    description:
      "The request body is not sent as `application/json` (or another `+json` type), names a `charset` other than `utf-8`, or has a `Content-Encoding` other than `identity` (compressed bodies are not accepted).",
  },
  422: {
    name: "IdempotencyKeyReused",
    description: "The `Idempotency-Key` was already used, within 24 hours, with a different pet.",
  },
  429: {
    name: "TooManyRequests",
    description:
      "The API key is over its rate limit, or the client's address sent too many unknown API keys: wait `Retry-After` seconds.",
    headers: ["RetryAfter"],
  },
  500: {
    name: "InternalError",
    description: "An unexpected fault. The body reveals nothing of it; the detail goes to the Worker's log.",
  },
  503: {
    name: "ServiceUnavailable",
    description:
      "The database or the API key store failed for a moment, in a way Cloudflare documents as transient (reads and idempotent writes were already retried): wait `Retry-After` seconds and retry. A `GET` is always safe to retry, and so is a `POST` with an `Idempotency-Key`; a `POST` without one may have created the pet (the message says so).",
    headers: ["RetryAfterFault"],
  },
};

/** Every operation may answer these. */
export const COMMON_ERRORS = [405, 500];
/** Operations behind an API key add these: the key is checked in KV and for its scope, counted against its rate limit, and D1 is read. */
export const KEYED_ERRORS = [401, 403, 429, 503];

export const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
export const json = (schema: object) => ({ "application/json": { schema } });

/** An Error body whose code and status agree, as ERROR_STATUS pairs them. */
type ErrorExample = {
  [C in ErrorCode]: { code: C; message: string; status: (typeof ERROR_STATUS)[C] };
}[ErrorCode];
export const errorExample = <C extends ErrorCode>(code: C, message: string) =>
  ({ code, message, status: ERROR_STATUS[code] }) as ErrorExample;

type Content = Record<string, { schema: object }>;
export type ResponseSpec = { description: string; content?: Content; headers?: ResponseHeader[] };
/** A query or path parameter object: each field's description and example. */
type ParameterSpec<Fields> = {
  in: "query" | "path";
  schema: $ZodType<Fields>;
  fields: { [K in keyof Fields]-?: { description: string; example: Exclude<Fields[K], undefined> } };
};

/**
 * One operation, as scripts/openapi.ts expands it: header keys into the components, error
 * statuses into responses (COMMON_ERRORS and, unless public, KEYED_ERRORS added), and
 * examples checked for completeness.
 */
export type OperationSpec = {
  method: "get" | "post";
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: "Pets" | "Documentation";
  /** Answered without an API key. */
  public?: true;
  deprecated?: true;
  // biome-ignore lint/suspicious/noExplicitAny: each operation's own parameter type is checked where it is written.
  parameters?: ParameterSpec<any>;
  requestHeaders?: RequestHeader[];
  /** A required JSON body: its component schema's name. */
  requestBody?: string;
  responses: Record<number, ResponseSpec>;
  /** Error statuses beyond COMMON_ERRORS and KEYED_ERRORS. */
  errors: number[];
  /** Headers on every answer of this operation. */
  alwaysHeaders?: ResponseHeader[];
  /** Headers on its errors, which are shared responses: optional, since other operations give them too. */
  errorHeaders?: ResponseHeader[];
  /** Given, every parameter, response header, request body and error of the operation has an example. */
  examples?: { requestBody?: unknown; errors: Record<number, ErrorExample> };
};

/** Checks an operation's parameter fields against its schema's type where the operation is written. */
export const parameters = <Fields>(spec: ParameterSpec<Fields>) => spec;
