// The headers of the OpenAPI description: request headers as shared parameters, response
// headers as shared components, each with its example (a `const` is its own example).
// Imported by the generator (scripts/openapi.ts) only.
import type { OpenAPIV3_1 } from "openapi-types";
import { UNAVAILABLE_RETRY_AFTER_S } from "../core/error-codes";
import { DEPRECATIONS, deprecationHeaders } from "../deprecation/deprecated-operation";
import { BEARER_CHALLENGES, KEY_EXPIRATION_HEADER } from "../http/api-key-auth";
import { BOOKMARK_HEADER } from "../http/begin-call";
import { EXPOSED_HEADERS } from "../http/cors";
import { RATE_LIMIT_POLICY_HEADER, rateLimitPolicy } from "../http/rate-limit";
import { REQUEST_ID_MAX_LENGTH, SANE_REQUEST_ID } from "../http/request-log";
import { RATE_LIMIT_PERIOD_S } from "../lib/limiters";
import {
  BOOKMARK,
  BOOKMARK_LENGTH,
  BOOKMARK_RULE,
  CURSOR_MAX_LENGTH,
  documentWording,
  IDEMPOTENCY_HEADER_MAX_LENGTH,
  IDEMPOTENCY_KEY,
} from "../schemas";
import {
  DOCUMENT_CACHE_CONTROL,
  IF_NONE_MATCH_MAX_LENGTH,
  PAGE_CONTENT_SECURITY_POLICY,
} from "./documentation-headers";

/** A header: its name on the wire, and its OpenAPI Header Object (a `const` is its own example). */
const header = (name: string, description: string, schema: object, { required = true, example = "" } = {}) => ({
  name,
  object: {
    description,
    required,
    schema: { type: "string", ...schema },
    ...(example && { example }),
  } as OpenAPIV3_1.HeaderObject,
});

const GET_PET_HEADERS = deprecationHeaders(DEPRECATIONS.getPet);

const BOOKMARK_EXAMPLE = "00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683";
const BOOKMARK_SCHEMA = { pattern: BOOKMARK.source, maxLength: BOOKMARK_LENGTH };
/** An origin: a scheme, a DNS name (at most 253 characters) and a port. */
const ORIGIN_MAX_LENGTH = "https://".length + 253 + ":65535".length;
const NEXT_LINK_MAX_LENGTH = `<?limit=100&status=available&cursor=${"x".repeat(CURSOR_MAX_LENGTH)}>; rel="next"`.length;
const MAX_ID_DIGITS = String(Number.MAX_SAFE_INTEGER).length;
/** Every method of the API, as the longest Allow lists them. */
const ALL_METHODS = "GET, HEAD, POST";
const HTTP_DATE =
  "^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$";

/** On the answers of getPet, errors included, described with its errors' shared responses, which other operations give too. */
const onGetPet = ({ name, object }: ReturnType<typeof header>) => ({
  name,
  object: { ...object, required: false, description: `On every answer of getPet (deprecated). ${object.description}` },
});

const DEPRECATION = header("Deprecation", "RFC 9745: when the operation was deprecated, as `@` and Unix seconds.", {
  const: GET_PET_HEADERS.Deprecation,
});
const SUNSET = header("Sunset", "RFC 8594: when the operation will be removed.", { const: GET_PET_HEADERS.Sunset });
const SUCCESSOR_LINK = header(
  "Link",
  "RFC 8288: the replacement, `GET /v1/pets` with the `status` filter, as `../pets`: a reference relative to the request's URL, to resolve against it (under a gateway's path prefix too).",
  { const: GET_PET_HEADERS.Link },
);

export const RESPONSE_HEADERS = {
  Location: header(
    "Location",
    "The new pet's address as `pets/{id}`: a reference relative to the request's URL, which resolves to `/v1/pets/{id}` (under a gateway's path prefix too, as RFC 9110 resolves Location).",
    { pattern: "^pets/[1-9][0-9]*$", maxLength: "pets/".length + MAX_ID_DIGITS },
    { example: "pets/1" },
  ),
  NextLink: header(
    "Link",
    "RFC 8288: `<?{query}>; rel=\"next\"` when more pets remain: a query-only reference, to resolve against the request's URL as a browser does: the same server and path, under a gateway's path prefix too. The query repeats `limit` and `status` and adds an opaque, signed `cursor`. Absent on the last page.",
    { pattern: '^<\\?[^>]+>; rel="next"$', maxLength: NEXT_LINK_MAX_LENGTH },
    {
      required: false,
      example: `<?limit=2&status=available&cursor=MS4zLmF2YWlsYWJsZQ.d8xPZ9wVOKTsm2-Mk5L60-rWOASgG2R3xufQFlQ02sM>; rel="next"`,
    },
  ),
  Deprecation: DEPRECATION,
  Sunset: SUNSET,
  SuccessorLink: SUCCESSOR_LINK,
  GetPetDeprecation: onGetPet(DEPRECATION),
  GetPetSunset: onGetPet(SUNSET),
  GetPetSuccessorLink: onGetPet(SUCCESSOR_LINK),
  WWWAuthenticate: header(
    "WWW-Authenticate",
    'RFC 6750: the bearer challenge; with `error="invalid_token"` for a key that is unknown or expired, `error="invalid_request"` for an Authorization header that is not `Bearer <key>`.',
    { enum: Object.values(BEARER_CHALLENGES) },
  ),
  Allow: header(
    "Allow",
    "The methods the path allows (`HEAD` wherever `GET` is).",
    { pattern: "^[A-Z]+(, [A-Z]+)*$", maxLength: ALL_METHODS.length },
    { example: ALL_METHODS },
  ),
  ETag: header("ETag", "A strong validator of this document (its SHA-256); send it back in `If-None-Match`.", {
    pattern: '^"[0-9a-f]{64}"$',
    maxLength: 66,
  }),
  CacheControl: header("Cache-Control", "How long caches may keep the document.", { const: DOCUMENT_CACHE_CONTROL }),
  NoStore: header("Cache-Control", "Answers about pets are for the caller only.", { const: "no-store" }),
  NoStoreUnderPets: header(
    "Cache-Control",
    "`no-store` on every answer of a path under `/v1/pets`, unknown ones included.",
    { const: "no-store" },
    { required: false },
  ),
  RequestId: header(
    "X-Request-Id",
    "The request's id, also in the service's log: the client's own `X-Request-Id` when it is a plain token, a new UUID otherwise.",
    { pattern: SANE_REQUEST_ID.source, maxLength: REQUEST_ID_MAX_LENGTH },
    { example: "0b9a4e43-6f0c-4d6e-9c55-2f1e8d7a3b21" },
  ),
  NoSniff: header("X-Content-Type-Options", "Browsers must not guess another media type.", { const: "nosniff" }),
  Bookmark: header(
    BOOKMARK_HEADER,
    "The D1 session's bookmark after this request. Send it back as the request header of the same name to read at least what this answer saw (your own writes included).",
    BOOKMARK_SCHEMA,
    { required: false, example: BOOKMARK_EXAMPLE },
  ),
  RetryAfter: header("Retry-After", "Seconds to wait before sending more requests with this API key.", {
    const: String(RATE_LIMIT_PERIOD_S),
  }),
  RetryAfterFault: header(
    "Retry-After",
    "Seconds to wait before retrying: a transient fault is expected to be over by then.",
    { const: String(UNAVAILABLE_RETRY_AFTER_S) },
  ),
  IdempotentReplayed: header(
    "Idempotent-Replayed",
    "`true` when this answer repeats the one recorded for the `Idempotency-Key`: nothing was created.",
    { const: "true" },
    { required: false },
  ),
  ApiKeyExpiration: header(
    KEY_EXPIRATION_HEADER,
    "When the API key that sent the request expires (an HTTP date), on every answer past authentication to a key that has an expiry: from that instant on it gets 401. Roll it before then (`npm run key:roll`).",
    { pattern: HTTP_DATE, maxLength: 29 },
    { required: false, example: "Fri, 01 Jan 2027 00:00:00 GMT" },
  ),
  RateLimitPolicy: header(
    RATE_LIMIT_POLICY_HEADER,
    `The rate limit this API key is under (IETF draft-ietf-httpapi-ratelimit-headers): \`q\` requests per window of \`w\` seconds, counted per key in each Cloudflare location; past it, 429 with \`Retry-After\`. How many remain is not known to the service, so no \`RateLimit\` header is sent.`,
    { pattern: '^"per-key";q=[1-9][0-9]*;w=[1-9][0-9]*$', maxLength: rateLimitPolicy("999999999").length },
    { required: false, example: rateLimitPolicy("600") },
  ),
  ContentSecurityPolicy: header("Content-Security-Policy", "The page runs no script and loads nothing.", {
    const: PAGE_CONTENT_SECURITY_POLICY,
  }),
  AllowOrigin: header(
    "Access-Control-Allow-Origin",
    "CORS: on every answer to a request whose `Origin` may read it: that origin, or `*` where every origin may (always for this document; for the rest as the deployment's `ALLOWED_ORIGINS` says).",
    { pattern: "^(\\*|https?://[^/]+)$", maxLength: ORIGIN_MAX_LENGTH },
    { required: false, example: "https://app.example.com" },
  ),
  ExposeHeaders: header(
    "Access-Control-Expose-Headers",
    "CORS: the headers a page's script may read, with `Access-Control-Allow-Origin`: `ETag` for this document, those of the pets operations otherwise.",
    { enum: [EXPOSED_HEADERS.join(","), "ETag"] },
    { required: false },
  ),
};
export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

export const REQUEST_HEADERS = {
  Bookmark: header(
    BOOKMARK_HEADER,
    `Send ${BOOKMARK_RULE}: this request then reads at least what that response saw. Reads otherwise go to the nearest replica.`,
    BOOKMARK_SCHEMA,
    { required: false, example: BOOKMARK_EXAMPLE },
  ),
  IdempotencyKey: header(
    "Idempotency-Key",
    `Makes the create safe to retry (IETF httpapi draft): ${documentWording().idempotencyKey}. A repeat from the same API key within 24 hours with the same pet answers the recorded 201 again and creates nothing; the same key with another pet is 422.`,
    { pattern: IDEMPOTENCY_KEY.source, maxLength: IDEMPOTENCY_HEADER_MAX_LENGTH },
    { required: false, example: '"7169c937-fb9c-4af5-b184-1dde0edaad3d"' },
  ),
  IfNoneMatch: header(
    "If-None-Match",
    `An \`ETag\` from an earlier answer, or several separated by commas, or \`*\`: 304 without a body when the document is unchanged. A longer value than ${IF_NONE_MATCH_MAX_LENGTH} characters is answered in full.`,
    {
      pattern: '^(\\*|(W/)?"[\\x21\\x23-\\x7E]*"( *, *(W/)?"[\\x21\\x23-\\x7E]*")*)$',
      maxLength: IF_NONE_MATCH_MAX_LENGTH,
    },
    { required: false, example: '"4f95e3708d42eba39c4c7db30ea333e2a73f4e85b9fb11c7c3b21c046281b2f2"' },
  ),
};
export type RequestHeader = keyof typeof REQUEST_HEADERS;

/** On every response of every operation. */
export const EVERY_RESPONSE: ResponseHeader[] = ["RequestId", "NoSniff", "AllowOrigin", "ExposeHeaders"];
