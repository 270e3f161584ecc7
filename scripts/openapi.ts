// `npm run openapi` writes openapi.json; `npm run check:openapi` (part of `npm test`)
// fails when the committed copy differs from what the code describes, so the document
// the Worker serves can never fall behind it.
//
// This file only assembles: each operation's description lives beside its route
// (src/routes/*.openapi.ts), what they share in src/routes/common.openapi.ts, and the
// schemas and their wording in src/schemas.ts, which zod converts to JSON Schema here,
// in Node, so that none of it reaches the Worker's bundle.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { OpenAPIV3_1 } from "openapi-types";
import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";
import { ERROR_STATUS } from "../src/error-codes";
import {
  API,
  BEARER_AUTH,
  COMMON_ERRORS,
  ERROR_RESPONSES,
  json,
  KEYED_ERRORS,
  type OperationSpec,
  type ResponseSpec,
  ref,
  SERVERS,
  TAGS,
} from "../src/routes/common.openapi";
import { DOCUMENTATION_OPERATIONS } from "../src/routes/documentation.openapi";
import { EVERY_RESPONSE, REQUEST_HEADERS, RESPONSE_HEADERS, type ResponseHeader } from "../src/routes/headers.openapi";
import { BODY_EXAMPLES, PET_OPERATIONS } from "../src/routes/pets.openapi";
import {
  documentWording,
  errorSchema,
  NAME_MAX_LENGTH,
  newPetSchema,
  petSchema,
  petStatusSchema,
  petsSchema,
} from "../src/schemas";

const OPERATIONS = [...PET_OPERATIONS, ...DOCUMENTATION_OPERATIONS];

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema as zod writes it, edited in place.
type JsonSchema = Record<string, any>;

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

/** Responses are documented as zod outputs, request bodies and parameters as what zod accepts. */
const convert = (io: "input" | "output", schemas: Record<string, $ZodType>): Record<string, JsonSchema> => {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, { io, uri: (id) => ref(id).$ref, override }).schemas;
  // $schema and $id belong to standalone documents; a component is named by its place.
  return Object.fromEntries(Object.entries(converted).map(([id, { $schema, $id, ...schema }]) => [id, schema]));
};

// Parameter objects are converted by operationId, beside the components they refer to.
const parameterSchemas = Object.fromEntries(
  OPERATIONS.flatMap(({ operationId, parameters }) => (parameters ? [[operationId, parameters.schema]] : [])),
);
const outputs = convert("output", {
  Pet: petSchema,
  Pets: petsSchema,
  PetStatus: petStatusSchema,
  Error: errorSchema,
  ...parameterSchemas,
});
const inputs = convert("input", { NewPet: newPetSchema, PetStatus: petStatusSchema, ...parameterSchemas });

const SCHEMA_WORDING = documentWording().schemas;
const component = (name: keyof typeof SCHEMA_WORDING, schema: JsonSchema = {}): JsonSchema => {
  const { description, ...rest } = SCHEMA_WORDING[name];
  const fields: Record<string, string> = "fields" in rest ? rest.fields : {};
  for (const [field, text] of Object.entries(fields)) {
    if (!schema.properties?.[field]) throw new Error(`${name} has no field '${field}' to describe.`);
    schema.properties[field] = { description: text, ...schema.properties[field] };
  }
  return { description, ...schema };
};
const componentSchemas = {
  Pet: component("Pet", outputs.Pet),
  NewPet: component("NewPet", inputs.NewPet),
  PetStatus: component("PetStatus", outputs.PetStatus),
  Pets: component("Pets", outputs.Pets),
  Error: component("Error", outputs.Error),
};
// The codes come from ERROR_STATUS, so that a new code is documented as soon as it exists.
const ERROR_CODES = Object.keys(ERROR_STATUS) as (keyof typeof ERROR_STATUS)[];
Object.assign(componentSchemas.Error.properties.code, { enum: ERROR_CODES });

/** Parameters as the handler receives them (`limit` is an integer), required as zod requires them. */
const parametersOf = ({ operationId, parameters }: OperationSpec) => {
  if (!parameters) return [];
  const required: string[] = inputs[operationId]?.required ?? [];
  return Object.entries(outputs[operationId]?.properties ?? {}).map(([name, schema]) => {
    const field = parameters.fields[name];
    if (!field) throw new Error(`${operationId} does not describe its parameter '${name}'.`);
    const { description, example } = field;
    return { name, in: parameters.in, required: required.includes(name), description, schema, example };
  });
};

const headerExample = (key: ResponseHeader) => {
  const { example, schema } = RESPONSE_HEADERS[key].object as { example?: unknown; schema: JsonSchema };
  return example ?? schema.const;
};

type Example = { example: unknown } | { examples: Record<string, { $ref: string }> };

/** A body's example goes with its JSON media type. */
const withExample = (content: ResponseSpec["content"], example: Example | undefined) => {
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
const sharedExample = (content: NonNullable<ResponseSpec["content"]>): Example => {
  const schema: JsonSchema = content["application/json"]?.schema ?? {};
  const name = String(schema.$ref).replace("#/components/schemas/", "");
  if (!Object.hasOwn(BODY_EXAMPLES, name)) throw new Error(`No example of the schema '${name}' in BODY_EXAMPLES.`);
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
    headers: Object.fromEntries(
      all.map((key) => [RESPONSE_HEADERS[key].name, { $ref: `#/components/headers/${key}` }]),
    ),
    ...(body && { content: body }),
  };
};

const errorResponseOf = (status: number) => {
  const error = ERROR_RESPONSES[status];
  if (!error) throw new Error(`No description of the error status ${status} in ERROR_RESPONSES.`);
  return error;
};
/** One Error body per status, narrowed to the codes of that status. */
const errorBody = (status: number) => {
  const codes = ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
  return {
    allOf: [ref("Error")],
    properties: { ...(codes.length > 0 && { code: { enum: codes } }), status: { const: status } },
  };
};
const errorResponse = (status: number, always: ResponseHeader[] = [], example?: Example) =>
  responseObject({ ...errorResponseOf(status), content: json(errorBody(status)) }, always, example);

const errorStatusesOf = (operation: OperationSpec) =>
  [...new Set([...operation.errors, ...(operation.public ? [] : KEYED_ERRORS), ...COMMON_ERRORS])].sort(
    (a, b) => a - b,
  );

const operationObject = (operation: OperationSpec): OpenAPIV3_1.OperationObject => {
  const { examples, alwaysHeaders: always = [] } = operation;
  const requireExample = (example: unknown, what: string) => {
    if (examples && example === undefined) throw new Error(`${operation.operationId} has no example of ${what}.`);
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
        : { $ref: `#/components/responses/${errorResponseOf(status).name}` };
  }
  const parameters = [
    ...parametersOf(operation),
    ...(operation.requestHeaders ?? []).map((key) => ({ $ref: `#/components/parameters/${key}` })),
  ];
  const requestBody = operation.requestBody && {
    required: true,
    content: withExample(
      json(ref(operation.requestBody)),
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
  } as OpenAPIV3_1.OperationObject;
};

// A new error code that no operation answers cannot go unnoticed.
const documented = new Set(OPERATIONS.flatMap(errorStatusesOf));
for (const [code, status] of Object.entries(ERROR_STATUS)) {
  if (!documented.has(status)) throw new Error(`The error code '${code}' (${status}) is in no operation's errors.`);
}

const paths: Record<string, Record<string, OpenAPIV3_1.OperationObject>> = {};
for (const operation of OPERATIONS) {
  paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation) };
}

const document: OpenAPIV3_1.Document = {
  openapi: "3.1.1",
  info: API,
  servers: SERVERS,
  security: [{ bearerAuth: [] }],
  tags: TAGS,
  paths,
  components: {
    schemas: componentSchemas,
    examples: Object.fromEntries(Object.entries(BODY_EXAMPLES).map(([name, value]) => [name, { value }])),
    responses: Object.fromEntries(
      Object.entries(ERROR_RESPONSES).map(([status, { name }]) => [name, errorResponse(Number(status))]),
    ),
    parameters: Object.fromEntries(
      Object.entries(REQUEST_HEADERS).map(([key, { name, object }]) => [key, { name, in: "header", ...object }]),
    ),
    headers: Object.fromEntries(
      Object.entries(RESPONSE_HEADERS).map(([key, { object }]) => {
        const example = headerExample(key as ResponseHeader);
        return [key, { ...object, ...(example !== undefined && { example }) }];
      }),
    ),
    securitySchemes: { bearerAuth: BEARER_AUTH },
  },
} as OpenAPIV3_1.Document;

const FILE = path.join(import.meta.dirname, "../openapi.json");
const text = `${JSON.stringify(document, null, 2)}\n`;
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(FILE, "utf8");
  } catch {}
  if (current !== text) {
    console.error("openapi.json is stale: run `npm run openapi` and commit the result.");
    process.exit(1);
  }
  console.log("openapi.json matches the code.");
} else {
  writeFileSync(FILE, text);
  console.log("Wrote openapi.json.");
}
