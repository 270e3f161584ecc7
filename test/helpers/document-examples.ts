// Every example of openapi.json, with where it stands and whether the zod schema that the
// route validates that place with accepts it (test/worker/document/openapi-examples.test.ts checks them).
import * as z from "zod/mini";
import openapi from "../../openapi.json";
import { ERROR_STATUS, type ErrorCode } from "../../src/core/error-codes";
import {
  createPetHeadersSchema,
  errorSchema,
  listPetsQuerySchema,
  newPetSchema,
  petParamsSchema,
  petSchema,
  sessionHeadersSchema,
} from "../../src/schemas";

type Reference = { $ref: string };
type Parameter = { name: string; in: string; example?: unknown };
type Media = {
  schema: Partial<Reference>;
  example?: unknown;
  examples?: Record<string, Reference | { value: unknown }>;
};
type Response = { content?: Record<string, Media> };
export type Operation = {
  operationId: string;
  deprecated?: boolean;
  parameters?: (Parameter | Reference)[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, Response | Reference>;
};
const document = openapi as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: {
    parameters: Record<string, Parameter>;
    examples: Record<string, { value: unknown }>;
    responses: Record<string, Response>;
  };
};
export const PETS_OPERATIONS = ["listPets", "createPet", "getPet"];
export const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
const inline = <T extends object>(value: T | Reference): T | undefined => ("$ref" in value ? undefined : value);
const component = <T>(components: Record<string, T>, { $ref }: Reference) => components[$ref.split("/").at(-1) ?? ""];
export const parameterOf = (value: Parameter | Reference) =>
  inline(value) ?? (component(document.components.parameters, value as Reference) as Parameter);
/** A body's example: its own, or the one it shares from components.examples. */
export const exampleOf = ({ example, examples = {} }: Media) =>
  example ??
  Object.values(examples).map((entry) =>
    "$ref" in entry ? component(document.components.examples, entry as Reference)?.value : entry.value,
  )[0];
/**
 * Each JSON body an operation answers, with its example: a shared (error) response keeps
 * one example per operation, named by its operationId.
 */
export const responseBodies = ({ operationId, responses }: Operation) =>
  Object.entries(responses).flatMap(([status, response]) => {
    const shared = !inline(response);
    const { content = {} } = inline(response) ?? component(document.components.responses, response as Reference) ?? {};
    return Object.values(content).map((media) => ({
      status: Number(status),
      schema: media.schema,
      shared,
      example: shared ? (media.examples?.[operationId] as { value?: unknown } | undefined)?.value : exampleOf(media),
    }));
  });

/** The zod schema that each parameter is validated with, and the value as a request carries it. */
const PARAMETERS: Record<string, { schema: z.ZodMiniType; input: (example: unknown) => unknown }> = {
  "query limit": { schema: listPetsQuerySchema, input: (limit) => ({ limit: String(limit) }) },
  "query status": { schema: listPetsQuerySchema, input: (status) => ({ status }) },
  "query cursor": { schema: listPetsQuerySchema, input: (cursor) => ({ cursor }) },
  "path petId": { schema: petParamsSchema, input: (petId) => ({ petId: String(petId) }) },
  "header x-d1-bookmark": { schema: sessionHeadersSchema, input: (bookmark) => ({ "x-d1-bookmark": bookmark }) },
  "header idempotency-key": { schema: createPetHeadersSchema, input: (key) => ({ "idempotency-key": key }) },
  // No route validates it: an ETag that the document could have had.
  "header if-none-match": {
    schema: z.string().check(z.regex(new RegExp(openapi.components.headers.ETag.schema.pattern))),
    input: (etag) => etag,
  },
};
const BODIES: Record<string, z.ZodMiniType> = {
  "#/components/schemas/NewPet": newPetSchema,
  "#/components/schemas/Pet": petSchema,
  "#/components/schemas/Pets": z.array(petSchema),
};
const isErrorOf = (status: number, example: unknown) => {
  const body = errorSchema.safeParse(example);
  return body.success && body.data.status === status && ERROR_STATUS[body.data.code as ErrorCode] === status;
};

export type Example = { operationId: string; place: string; status?: number; example: unknown; valid: () => boolean };
export const examples: Example[] = operations.flatMap((operation) => {
  const { operationId, parameters = [], requestBody } = operation;
  return [
    ...parameters.map(parameterOf).map(({ name, in: location, example }) => ({
      operationId,
      place: `${location} ${name}`,
      example,
      valid: () => {
        const parameter = PARAMETERS[`${location} ${location === "header" ? name.toLowerCase() : name}`];
        if (!parameter) throw new Error(`No zod schema for the parameter ${name}: add it to PARAMETERS.`);
        return parameter.schema.safeParse(parameter.input(example)).success;
      },
    })),
    ...Object.values(requestBody?.content ?? {}).map((media) => {
      const example = exampleOf(media);
      return {
        operationId,
        place: "request body",
        example,
        valid: () => BODIES[media.schema.$ref ?? ""]?.safeParse(example).success === true,
      };
    }),
    ...responseBodies(operation).map(({ status, schema, example }) => ({
      operationId,
      place: `${status} body`,
      status,
      example,
      valid: () =>
        status >= 400 ? isErrorOf(status, example) : BODIES[schema.$ref ?? ""]?.safeParse(example).success === true,
    })),
  ];
});
export const label = ({ operationId, place }: Example) => `${operationId} ${place}`;
