// Builds the OpenAPI 3.1 document in Node, from the zod schemas the routes validate
// with (src/schemas.ts), the error codes of src/errors.ts and the examples of
// scripts/openapi-examples.ts. `npm run openapi` writes it to openapi.json, which the
// Worker serves as it is: neither zod's JSON Schema code nor these files reach the
// Worker's bundle.
import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";
import { BOOKMARK_HEADER } from "../src/db/session";
import { ERROR_STATUS } from "../src/errors";
import { MAX_BODY_BYTES } from "../src/json-body";
import { RATE_LIMIT_PERIOD_S } from "../src/rate-limit";
import { SANE_REQUEST_ID } from "../src/request-log";
import { GET_PET_DEPRECATED_AT, GET_PET_SUNSET } from "../src/response-headers";
import {
  BOOKMARK,
  BOOKMARK_RULE,
  CURSOR_RULE,
  errorSchema,
  ID_RULE,
  IDEMPOTENCY_KEY,
  IDEMPOTENCY_KEY_RULE,
  LIMIT_RULE,
  listPetsQuerySchema,
  NAME_MAX_LENGTH,
  NAME_RULE,
  newPetSchema,
  petParamsSchema,
  petSchema,
  petStatusSchema,
} from "../src/schemas";
import {
  BODY_EXAMPLES,
  OPERATION_EXAMPLES,
  type OperationExamples,
  PARAMETER_EXAMPLES,
  REQUEST_HEADER_EXAMPLES,
  RESPONSE_HEADER_EXAMPLES,
} from "./openapi-examples";

type JsonSchema = Record<string, unknown>;

// Every path below is relative to a server, and every server ends with the API's
// prefix, /v1. Deployed: workers.dev addresses, as `wrangler deploy --env <name>` publishes them without a custom domain.
const SERVERS = [
  { url: "https://petstore-production.{account}.workers.dev/v1", description: "Production" },
  { url: "https://petstore-staging.{account}.workers.dev/v1", description: "Staging" },
].map((server) => ({
  ...server,
  variables: { account: { default: "example", description: "The Cloudflare account's workers.dev subdomain." } },
}));
const LOCAL_SERVER = { url: "http://localhost:8787/v1", description: "Local development (`npm run dev`)" };

// ---------------------------------------------------------------------------
// Schemas: converted by zod, never written by hand. Responses are documented as
// zod outputs, request bodies and parameters as what zod accepts.

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

// What JSON Schema says better than the zod checks it stands for: a pet id is an
// int64 of at least 1, and a name's length (in code points, as JSON Schema counts).
const idSchemas = new Set<unknown>([petSchema.shape.id, petSchema.shape.categoryId]);
const override = ({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: JsonSchema }) => {
  if (idSchemas.has(zodSchema) && jsonSchema.exclusiveMinimum === 0) {
    delete jsonSchema.exclusiveMinimum;
    Object.assign(jsonSchema, { format: "int64", minimum: 1 });
  }
  if (zodSchema === petSchema.shape.name) Object.assign(jsonSchema, { minLength: 1, maxLength: NAME_MAX_LENGTH });
};

const convert = (io: "input" | "output", schemas: Record<string, $ZodType>): Record<string, JsonSchema> => {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, { io, uri: (id) => ref(id).$ref, override }).schemas;
  return Object.fromEntries(
    // $schema and $id belong to standalone documents; a component is named by its place.
    Object.entries(converted).map(([id, { $schema, $id, ...schema }]) => [id, schema as JsonSchema]),
  );
};

const outputs = convert("output", {
  Pet: petSchema,
  PetStatus: petStatusSchema,
  Error: errorSchema,
  ListPetsQuery: listPetsQuerySchema,
  PetParams: petParamsSchema,
});
const inputs = convert("input", {
  NewPet: newPetSchema,
  PetStatus: petStatusSchema,
  ListPetsQuery: listPetsQuerySchema,
  PetParams: petParamsSchema,
});

type ObjectSchema = { properties: Record<string, JsonSchema>; required?: string[] };
const objectSchema = (schema: JsonSchema | undefined) => schema as unknown as ObjectSchema;

/** Adds a description to each named property, and fails on a name the schema lacks. */
const describeProperties = (schema: JsonSchema | undefined, descriptions: Record<string, string>) => {
  const { properties } = objectSchema(schema);
  for (const [name, description] of Object.entries(descriptions)) {
    if (!properties[name]) throw new Error(`No property '${name}' to describe.`);
    properties[name] = { description, ...properties[name] };
  }
};

const upperFirst = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

const ID_DESCRIPTION = `${upperFirst(ID_RULE)} (2^53-1, the largest integer that a JSON client in JavaScript holds exactly).`;
for (const schema of [outputs.Pet, inputs.NewPet]) {
  describeProperties(schema, {
    name: `The animal's name: ${NAME_RULE} (characters are Unicode code points; a visible character is one that is not white space, a default-ignorable format or filler character such as U+200B or U+3164, U+2800 or a lone combining mark; bidirectional controls are U+202A-U+202E and U+2066-U+2069). Names in every script are accepted.`,
    categoryId: `The category the animal belongs to. ${ID_DESCRIPTION}`,
    status: schema === inputs.NewPet ? "Availability; `available` when omitted." : "Availability.",
  });
}
describeProperties(outputs.Pet, { id: `Assigned by the service on creation, never reused. ${ID_DESCRIPTION}` });

// The codes come from ERROR_STATUS, so that a new code is documented as soon as it exists.
const ERROR_CODES = Object.keys(ERROR_STATUS);
describeProperties(outputs.Error, {
  code: "Machine-readable error code.",
  message: "Human-readable description, naming the offending field or parameter.",
  status: "The HTTP status code, repeated.",
});
Object.assign(objectSchema(outputs.Error).properties.code ?? {}, { enum: ERROR_CODES });

const componentSchemas = {
  Pet: { description: "An animal offered for sale.", ...outputs.Pet },
  NewPet: { description: "The creation payload: a Pet without `id`. Unknown fields are refused.", ...inputs.NewPet },
  PetStatus: { description: "The availability of an animal.", ...outputs.PetStatus },
  Pets: { description: "A page of pets, by ascending `id`.", type: "array", items: ref("Pet") },
  Error: { description: "The body of every error response.", ...outputs.Error },
};

const parameterExamples: Record<string, unknown> = PARAMETER_EXAMPLES;

/**
 * Parameters from the zod object that validates them: their schemas as the handler
 * receives them (`limit` is an integer, not the string it is sent as), required as
 * zod requires them from the client.
 */
const parametersOf = (location: "query" | "path", id: string, descriptions: Record<string, string>) => {
  const { properties } = objectSchema(outputs[id]);
  const required = objectSchema(inputs[id]).required ?? [];
  return Object.entries(properties).map(([name, schema]) => {
    const example = parameterExamples[name];
    if (example === undefined) throw new Error(`No example of the parameter '${name}': add it to PARAMETER_EXAMPLES.`);
    return { name, in: location, required: required.includes(name), description: descriptions[name], schema, example };
  });
};

// ---------------------------------------------------------------------------
// Headers. Adding one is a line in one of these tables, then its key in the
// operations (or in EVERY_RESPONSE) below.

const header = (name: string, description: string, schema: JsonSchema, required = true) => ({
  name,
  object: { description, required, schema: { type: "string", ...schema } },
});

const RESPONSE_HEADERS = {
  Location: header("Location", "The new pet's path, `/v1/pets/{id}`.", { pattern: "^/v1/pets/[1-9][0-9]*$" }),
  NextLink: header(
    "Link",
    'RFC 8288: `<{absolute url}>; rel="next"` when more pets remain. The url repeats `limit` and `status` and adds an opaque, signed `cursor`. Absent on the last page.',
    { pattern: '^<https?://[^>]+>; rel="next"$' },
    false,
  ),
  Deprecation: header("Deprecation", "RFC 9745: when the operation was deprecated, as `@` and Unix seconds.", {
    const: `@${GET_PET_DEPRECATED_AT}`,
  }),
  Sunset: header("Sunset", "RFC 8594: when the operation will be removed.", { const: GET_PET_SUNSET.toUTCString() }),
  SuccessorLink: header("Link", "RFC 8288: the replacement, `GET /v1/pets` with the `status` filter.", {
    pattern: '^</v1/pets>; rel="successor-version"$',
  }),
  WWWAuthenticate: header("WWW-Authenticate", "RFC 6750: the bearer challenge.", { pattern: "^Bearer realm=" }),
  Allow: header("Allow", "The methods the path allows (`HEAD` wherever `GET` is).", {
    pattern: "^[A-Z]+(, [A-Z]+)*$",
  }),
  ETag: header("ETag", "A strong validator of this document; send it back in `If-None-Match`.", {
    pattern: '^"[^"]+"$',
  }),
  CacheControl: header("Cache-Control", "How long caches may keep the document.", {}),
  NoStore: header("Cache-Control", "Answers about pets are for the caller only.", { const: "no-store" }),
  NoStoreUnderPets: header(
    "Cache-Control",
    "`no-store` on every answer of a path under `/v1/pets`, unknown ones included.",
    { const: "no-store" },
    false,
  ),
  RequestId: header(
    "X-Request-Id",
    "The request's id, also in the service's log: the client's own `X-Request-Id` when it is a plain token, a new UUID otherwise.",
    { pattern: SANE_REQUEST_ID.source },
  ),
  NoSniff: header("X-Content-Type-Options", "Browsers must not guess another media type.", { const: "nosniff" }),
  Bookmark: header(
    BOOKMARK_HEADER,
    "The D1 session's bookmark after this request. Send it back as the request header of the same name to read at least what this answer saw (your own writes included).",
    { pattern: BOOKMARK.source },
    false,
  ),
  RetryAfter: header("Retry-After", "Seconds to wait before sending more requests with this API key.", {
    const: String(RATE_LIMIT_PERIOD_S),
  }),
  IdempotentReplayed: header(
    "Idempotent-Replayed",
    "`true` when this answer repeats the one recorded for the `Idempotency-Key`: nothing was created.",
    { const: "true" },
    false,
  ),
  ContentSecurityPolicy: header("Content-Security-Policy", "The page runs no script and loads nothing.", {}),
};
type ResponseHeader = keyof typeof RESPONSE_HEADERS;
const responseHeaderExamples: Partial<Record<ResponseHeader, string>> = RESPONSE_HEADER_EXAMPLES;
const headerExample = (key: ResponseHeader) => {
  const { schema } = RESPONSE_HEADERS[key].object;
  return "const" in schema ? schema.const : responseHeaderExamples[key];
};

const REQUEST_HEADERS = {
  Bookmark: header(
    BOOKMARK_HEADER,
    `${upperFirst(BOOKMARK_RULE)}: this request then reads at least what that response saw. Reads otherwise go to the nearest replica.`,
    { pattern: BOOKMARK.source },
    false,
  ),
  IdempotencyKey: header(
    "Idempotency-Key",
    `Makes the create safe to retry (IETF httpapi draft): ${IDEMPOTENCY_KEY_RULE} (RFC 8941; a quoted key is counted unquoted and unescaped). A repeat from the same API key within 24 hours with the same pet answers the recorded 201 again and creates nothing; the same key with another pet is 422.`,
    { pattern: IDEMPOTENCY_KEY.source },
    false,
  ),
  IfNoneMatch: header(
    "If-None-Match",
    "An `ETag` from an earlier answer: 304 without a body when the document is unchanged.",
    {},
    false,
  ),
};
type RequestHeader = keyof typeof REQUEST_HEADERS;
const requestHeaderExamples: Record<RequestHeader, string> = REQUEST_HEADER_EXAMPLES;

/** On every response of every operation. */
const EVERY_RESPONSE: ResponseHeader[] = ["RequestId", "NoSniff"];

/** On every answer of the pets operations, errors included. */
const PETS_RESPONSE: ResponseHeader[] = ["NoStore", "Bookmark"];

// ---------------------------------------------------------------------------
// Error responses: one Error body per status, narrowed to the codes of that status.

const ERROR_RESPONSES: Record<number, { name: string; description: string; headers?: ResponseHeader[] }> = {
  400: {
    name: "BadRequest",
    description:
      "A query, path or body value breaks the rules, a field or parameter is unknown or repeated, the body is not UTF-8 or not JSON, or an object in it repeats a member name. The message names the first three offending ones and counts the rest; it is at most 1 KiB.",
  },
  401: {
    name: "Unauthorized",
    description: "Missing, malformed or unknown API key.",
    headers: ["WWWAuthenticate", "NoStoreUnderPets"],
  },
  404: {
    name: "NotFound",
    description: "No such pet; also the answer to any path that is not in this document.",
    headers: ["NoStoreUnderPets", "Bookmark"],
  },
  405: {
    name: "MethodNotAllowed",
    description:
      "The path exists, but not with this method; `Allow` lists those it has. (OpenAPI describes responses per operation: this one is the path's.)",
    headers: ["Allow"],
  },
  413: {
    name: "PayloadTooLarge",
    description: `The request body is over ${MAX_BODY_BYTES} bytes, whether sent with a Content-Length or chunked.`,
  },
  410: {
    name: "Gone",
    description: `The operation is switched off: for good from its \`Sunset\` instant (${GET_PET_SUNSET.toUTCString()}), or for one of the brownouts announced before then. The message names the sunset and the successor, \`GET /pets\` with the \`status\` filter.`,
  },
  422: {
    name: "IdempotencyKeyReused",
    description: "The `Idempotency-Key` was already used, within 24 hours, with a different pet.",
  },
  415: {
    name: "UnsupportedMediaType",
    description:
      "The request body is not sent as `application/json` (or another `+json` type), names a `charset` other than `utf-8`, or has a `Content-Encoding` other than `identity` (compressed bodies are not accepted).",
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
};

/** Every operation may answer these. */
const COMMON_ERRORS = [405, 500];
/** Operations behind an API key add these: the key is checked, and counted against its rate limit. */
const KEYED_ERRORS = [401, 429];

const codesOf = (status: number) =>
  ERROR_CODES.filter((code) => ERROR_STATUS[code as keyof typeof ERROR_STATUS] === status);

const errorBody = (status: number) => {
  const codes = codesOf(status);
  return {
    allOf: [ref("Error")],
    properties: { ...(codes.length > 0 && { code: { enum: codes } }), status: { const: status } },
  };
};

// ---------------------------------------------------------------------------
// The operations.

const json = (schema: JsonSchema) => ({ "application/json": { schema } });

type Content = Record<string, { schema: JsonSchema }>;
type ResponseSpec = {
  description: string;
  content?: Content;
  headers?: ResponseHeader[];
};
type Operation = {
  method: "get" | "post";
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: "Pets" | "Documentation";
  /** Answered without an API key. */
  public?: true;
  deprecated?: true;
  parameters?: JsonSchema[];
  requestHeaders?: RequestHeader[];
  /** The schema of a required JSON body. */
  requestBody?: JsonSchema;
  responses: Record<number, ResponseSpec>;
  /** Error statuses of this operation beyond COMMON_ERRORS and KEYED_ERRORS. */
  errors: number[];
  /** Given, every parameter, response header, request body and JSON body of the operation has an example. */
  examples?: OperationExamples;
  /** Headers on every answer of this operation, errors included. */
  alwaysHeaders?: ResponseHeader[];
};

const OPERATIONS: Operation[] = [
  {
    method: "get",
    path: "/pets",
    operationId: "listPets",
    summary: "List pets",
    description:
      "Pets by ascending `id`. The body is a plain array; when more pets remain, the `Link` header points to the next page. Following `next` visits every matching pet exactly once, also while others insert. Unknown query parameters are refused.",
    tag: "Pets",
    parameters: parametersOf("query", "ListPetsQuery", {
      limit: `The most pets in the page: ${LIMIT_RULE}, in decimal digits.`,
      status: "Keeps only pets with this status.",
      cursor: `Where the page starts: ${CURSOR_RULE}, copied as it is, never built by hand. A cursor belongs to its \`status\` filter; \`limit\` may change between pages.`,
    }),
    requestHeaders: ["Bookmark"],
    responses: { 200: { description: "A page of pets.", content: json(ref("Pets")), headers: ["NextLink"] } },
    errors: [400],
    alwaysHeaders: PETS_RESPONSE,
    examples: OPERATION_EXAMPLES.listPets,
  },
  {
    method: "post",
    path: "/pets",
    operationId: "createPet",
    summary: "Add a pet",
    description: `The body is UTF-8 JSON sent as \`application/json\`, uncompressed, at most ${MAX_BODY_BYTES} bytes, with no member name repeated.`,
    tag: "Pets",
    requestHeaders: ["IdempotencyKey", "Bookmark"],
    requestBody: ref("NewPet"),
    responses: {
      201: {
        description: "The stored pet, with its `id` (or, for a retried `Idempotency-Key`, the pet it created).",
        content: json(ref("Pet")),
        headers: ["Location", "IdempotentReplayed"],
      },
    },
    errors: [400, 413, 415, 422],
    alwaysHeaders: PETS_RESPONSE,
    examples: OPERATION_EXAMPLES.createPet,
  },
  {
    method: "get",
    path: "/pets/{petId}",
    operationId: "getPet",
    summary: "Get a pet (deprecated)",
    description: `Deprecated: it is removed on ${GET_PET_SUNSET.toUTCString()}, and answers 410 from that instant on; before then it also answers 410 during announced brownouts. Use \`GET /pets\` with the \`status\` filter. Every answer, errors included, carries \`Deprecation\`, \`Sunset\` and \`Link\`.`,
    tag: "Pets",
    deprecated: true,
    parameters: parametersOf("path", "PetParams", { petId: `The pet's id. ${ID_DESCRIPTION}` }),
    responses: { 200: { description: "The pet.", content: json(ref("Pet")) } },
    requestHeaders: ["Bookmark"],
    errors: [400, 404, 410],
    alwaysHeaders: ["Deprecation", "Sunset", "SuccessorLink", ...PETS_RESPONSE],
    examples: OPERATION_EXAMPLES.getPet,
  },
  {
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This document",
    description: "The OpenAPI document of the API. No API key is needed.",
    tag: "Documentation",
    public: true,
    requestHeaders: ["IfNoneMatch"],
    responses: {
      200: {
        description: "The document.",
        content: json({
          type: "object",
          properties: { openapi: { type: "string" }, info: { type: "object" }, paths: { type: "object" } },
          required: ["openapi", "info", "paths"],
        }),
        headers: ["ETag", "CacheControl"],
      },
      304: { description: "The document has not changed since the `ETag` sent.", headers: ["ETag", "CacheControl"] },
    },
    errors: [],
  },
  {
    method: "get",
    path: "/docs",
    operationId: "getApiReference",
    summary: "API reference page",
    description: "A human-readable reference generated from this document. No API key is needed.",
    tag: "Documentation",
    public: true,
    responses: {
      200: {
        description: "An HTML page.",
        content: { "text/html": { schema: { type: "string" } } },
        headers: ["ContentSecurityPolicy"],
      },
    },
    errors: [],
  },
];

const headerRef = (key: ResponseHeader) => ({ $ref: `#/components/headers/${key}` });

type Example = { example: unknown } | { examples: Record<string, { $ref: string }> };

/** A body's example goes with its JSON media type. */
const withExample = (content: Content | undefined, example: Example | undefined) => {
  if (!content || !example) return content;
  const { "application/json": body, ...others } = content;
  if (!body) throw new Error("Only JSON bodies have examples.");
  return { ...others, "application/json": { ...body, ...example } };
};

/**
 * A successful answer's example is its schema's, kept once in components.examples. Once
 * also because test/conformance.ts reads the document with @cfworker/json-schema, which
 * takes an `id` member anywhere in it for a draft-04 schema id, and refuses two equal ones.
 */
const sharedExample = (content: Content): Example => {
  const name = String(content["application/json"]?.schema.$ref ?? "").replace("#/components/schemas/", "");
  if (!Object.hasOwn(BODY_EXAMPLES, name)) {
    throw new Error(`No example of the schema '${name}': add it to BODY_EXAMPLES.`);
  }
  return { examples: { [name]: { $ref: `#/components/examples/${name}` } } };
};

const responseObject = (
  { description, content, headers = [] }: ResponseSpec,
  always: ResponseHeader[],
  example?: Example,
) => {
  const all = [...headers, ...always, ...EVERY_RESPONSE];
  const body = withExample(content, example);
  return {
    description,
    ...(all.length > 0 && {
      headers: Object.fromEntries(all.map((key) => [RESPONSE_HEADERS[key].name, headerRef(key)])),
    }),
    ...(body && { content: body }),
  };
};

const errorResponseOf = (status: number) => {
  const error = ERROR_RESPONSES[status];
  if (!error) throw new Error(`No description of the error status ${status}: add it to ERROR_RESPONSES.`);
  return error;
};
const errorResponse = (status: number, always: ResponseHeader[] = [], example?: Example) =>
  responseObject({ ...errorResponseOf(status), content: json(errorBody(status)) }, always, example);
const errorResponseRef = (status: number) => `#/components/responses/${errorResponseOf(status).name}`;

const errorStatusesOf = (operation: Operation) =>
  [...new Set([...operation.errors, ...(operation.public ? [] : KEYED_ERRORS), ...COMMON_ERRORS])].sort(
    (a, b) => a - b,
  );

const operationObject = (operation: Operation) => {
  const { examples, alwaysHeaders: always = [] } = operation;
  const requireExample = (example: unknown, what: string) => {
    if (examples && example === undefined) {
      throw new Error(`${operation.operationId} has no example of ${what}: add one to scripts/openapi-examples.ts.`);
    }
    return example;
  };
  const headers = [
    ...Object.values(operation.responses).flatMap((response) => response.headers ?? []),
    ...errorStatusesOf(operation).flatMap((status) => errorResponseOf(status).headers ?? []),
    ...always,
    ...EVERY_RESPONSE,
  ];
  for (const key of headers) requireExample(headerExample(key), `the header ${RESPONSE_HEADERS[key].name}`);
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] = responseObject(
      response,
      always,
      examples && response.content && sharedExample(response.content),
    );
  }
  for (const status of errorStatusesOf(operation)) {
    // Shared from components, unless this operation adds headers or an example to every answer.
    responses[status] =
      always.length > 0 || examples
        ? errorResponse(
            status,
            always,
            examples && { example: requireExample(examples.errors[status], `its ${status}`) },
          )
        : { $ref: errorResponseRef(status) };
  }
  const parameters = [
    ...(operation.parameters ?? []),
    ...(operation.requestHeaders ?? []).map((key) => ({ $ref: `#/components/parameters/${key}` })),
  ];
  const requestBody = operation.requestBody && {
    required: true,
    content: withExample(
      json(operation.requestBody),
      examples && { example: requireExample(examples.requestBody, "its request body") },
    ),
  };
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tags: [operation.tag],
    ...(operation.deprecated && { deprecated: true }),
    ...(operation.public && { security: [] }),
    ...(parameters.length > 0 && { parameters }),
    ...(requestBody && { requestBody }),
    responses,
  };
};

/** Fails when ERROR_STATUS has a status that no operation documents, so a new code cannot go unnoticed. */
const checkEveryErrorIsDocumented = () => {
  const documented = new Set(OPERATIONS.flatMap(errorStatusesOf));
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    if (!documented.has(status)) {
      throw new Error(
        `The error code '${code}' (${status}) is in no operation's responses: add ${status} to ERROR_RESPONSES and to the errors of the operations that answer it, in scripts/openapi-document.ts.`,
      );
    }
  }
};

const DESCRIPTION = `A store of animals offered for sale, on Cloudflare Workers.

Every operation but this document and its reference page needs an API key, sent as \`Authorization: Bearer <key>\`.

Errors: every error has the \`Error\` body, whose \`status\` repeats the HTTP status and whose \`code\` is one of ${ERROR_CODES.map((code) => `\`${code}\` (${ERROR_STATUS[code as keyof typeof ERROR_STATUS]})`).join(", ")}. A path that is not in this document is answered with 404 \`not_found\` (\`#/components/responses/NotFound\`), after the checks that every pets operation makes first when it is under \`/pets/\`: 401 without a valid key, 429 over the rate limit, 400 for a malformed \`x-d1-bookmark\`. A path with a method it lacks is answered with 405 and \`Allow\`. \`HEAD\` is answered like \`GET\`, without a body.

Pagination: \`GET /pets\` answers a plain array; while more pets remain, \`Link: <{absolute url}>; rel="next"\` gives the next page.`;

export const buildOpenApiDocument = () => {
  checkEveryErrorIsDocumented();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] ??= {};
    (paths[operation.path] as Record<string, unknown>)[operation.method] = operationObject(operation);
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "Petstore edge API",
      version: "1.0.0",
      description: DESCRIPTION,
    },
    servers: [...SERVERS, LOCAL_SERVER],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Pets", description: "Animals offered for sale." },
      { name: "Documentation", description: "This document and its reference page." },
    ],
    paths,
    components: {
      schemas: componentSchemas,
      examples: Object.fromEntries(Object.entries(BODY_EXAMPLES).map(([name, value]) => [name, { value }])),
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, { name }]) => [name, errorResponse(Number(status))]),
      ),
      parameters: Object.fromEntries(
        Object.entries(REQUEST_HEADERS).map(([key, { name, object }]) => [
          key,
          { name, in: "header", ...object, example: requestHeaderExamples[key as RequestHeader] },
        ]),
      ),
      headers: Object.fromEntries(
        Object.entries(RESPONSE_HEADERS).map(([key, { object }]) => {
          const example = headerExample(key as ResponseHeader);
          return [key, { ...object, ...(example !== undefined && { example }) }];
        }),
      ),
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key, `ps_live_…` in production and `ps_test_…` elsewhere, issued with `npm run key:create` (see the README).",
        },
      },
    },
  };
};

/** The file's exact text: what `npm run openapi` writes and `npm run check:openapi` compares. */
export const openApiText = () => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
