// Each operation's object in the OpenAPI document: its parameters, its responses with
// their headers and examples, and a reference for each error status it answers to the
// one shared response of that status (components.responses), built here too.
import type { OpenAPIV3_1 } from "openapi-types";
import { ERROR_STATUS } from "../../src/core/error-codes";
import {
  COMMON_ERRORS,
  ERROR_RESPONSES,
  json,
  KEYED_ERRORS,
  type OperationSpec,
  type ResponseSpec,
  ref,
} from "../../src/document/common.openapi";
import { EVERY_RESPONSE, RESPONSE_HEADERS, type ResponseHeader } from "../../src/document/headers.openapi";
import { BODY_EXAMPLES } from "../../src/rest/routes.openapi";
import { ERROR_CODES, inputs, type JsonSchema, outputs } from "./openapi-schemas";

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

export const headerExample = (key: ResponseHeader) => {
  const { example, schema } = RESPONSE_HEADERS[key].object as { example?: unknown; schema: JsonSchema };
  return example ?? schema.const ?? schema.enum?.[0];
};

type Example = { example: unknown } | { examples: Record<string, { $ref: string } | { value: unknown }> };

/** A body's example goes with its JSON media type. */
const withExample = (content: ResponseSpec["content"], example: Example | undefined) => {
  if (!content || !example) return content;
  const { "application/json": body, ...others } = content;
  if (!body) throw new Error("Only JSON bodies have examples.");
  return { ...others, "application/json": { ...body, ...example } };
};

/**
 * A successful answer's example is its schema's, kept once in components.examples. Once
 * also because test/helpers/conformance.ts reads the document with @cfworker/json-schema, which
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
  const all = [...new Set([...headers, ...always, ...EVERY_RESPONSE])];
  const names = all.map((key) => RESPONSE_HEADERS[key].name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) throw new Error(`Two descriptions of the header ${twice} on one answer ("${description}").`);
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

export const errorStatusesOf = (operation: OperationSpec) =>
  [...new Set([...operation.errors, ...(operation.public ? [] : KEYED_ERRORS), ...COMMON_ERRORS])].sort(
    (a, b) => a - b,
  );

const exampleRequired = (operation: OperationSpec, example: unknown, what: string) => {
  if (operation.examples && example === undefined)
    throw new Error(`${operation.operationId} has no example of ${what}.`);
  return example;
};

/**
 * Each error status once, as a shared response that every operation refers to: its own
 * headers, those that the operations answering it add (optional, as not all of them do),
 * and each operation's example, named by its operationId.
 */
export const sharedErrorResponses = (operations: OperationSpec[]) => {
  const statuses = [...new Set(operations.flatMap(errorStatusesOf))].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const answering = operations.filter((operation) => errorStatusesOf(operation).includes(status));
      const added = answering.flatMap(({ errorHeaders = [] }) => errorHeaders);
      const examples = Object.fromEntries(
        answering
          .filter(({ examples }) => examples)
          .map((operation) => [
            operation.operationId,
            {
              value: exampleRequired(operation, operation.examples?.errors[status], `its ${status}`),
            },
          ]),
      );
      const { name, ...error } = errorResponseOf(status);
      const example = Object.keys(examples).length > 0 ? { examples } : undefined;
      return [name, responseObject({ ...error, content: json(errorBody(status)) }, added, example)];
    }),
  );
};

export const operationObject = (operation: OperationSpec): OpenAPIV3_1.OperationObject => {
  const { examples, alwaysHeaders: always = [], errorHeaders = [] } = operation;
  const headers = [
    ...Object.values(operation.responses).flatMap((response) => response.headers ?? []),
    ...errorStatusesOf(operation).flatMap((status) => errorResponseOf(status).headers ?? []),
    ...always,
    ...errorHeaders,
    ...EVERY_RESPONSE,
  ];
  for (const key of headers) exampleRequired(operation, headerExample(key), `the header ${RESPONSE_HEADERS[key].name}`);
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] = responseObject(
      response,
      always,
      examples && response.content && sharedExample(response.content),
    );
  }
  for (const status of errorStatusesOf(operation)) {
    responses[status] = { $ref: `#/components/responses/${errorResponseOf(status).name}` };
  }
  const parameters = [
    ...parametersOf(operation),
    ...(operation.requestHeaders ?? []).map((key) => ({ $ref: `#/components/parameters/${key}` })),
  ];
  const requestBody = operation.requestBody && {
    required: true,
    content: withExample(
      json(ref(operation.requestBody)),
      examples && { example: exampleRequired(operation, examples.requestBody, "its request body") },
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
