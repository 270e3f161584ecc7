// The JSON Schema of the OpenAPI document's components, converted by zod from the wire
// schemas of src/schemas.ts (with their wording), and of each operation's parameters.
import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";
import { ERROR_STATUS } from "../../src/core/error-codes";
import { ref } from "../../src/document/common.openapi";
import { DOCUMENTATION_OPERATIONS } from "../../src/document/routes.openapi";
import { PET_OPERATIONS } from "../../src/rest/routes.openapi";
import {
  CURSOR_SHAPE,
  documentWording,
  errorSchema,
  LIST_LIMIT,
  NAME_MAX_LENGTH,
  newPetSchema,
  petSchema,
  petStatusSchema,
  petsSchema,
} from "../../src/schemas";

export const OPERATIONS = [...PET_OPERATIONS, ...DOCUMENTATION_OPERATIONS];

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema as zod writes it, edited in place.
export type JsonSchema = Record<string, any>;

// What JSON Schema says better than the zod checks it stands for: a pet id is an
// int64 of at least 1, and a name's length (in code points, as JSON Schema counts).
const idSchemas = new Set<unknown>([petSchema.shape.id, petSchema.shape.categoryId]);
const override = ({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: JsonSchema }) => {
  if (idSchemas.has(zodSchema) && jsonSchema.exclusiveMinimum === 0) {
    delete jsonSchema.exclusiveMinimum;
    Object.assign(jsonSchema, { format: "int64", minimum: 1 });
  }
  if (zodSchema === petSchema.shape.name) Object.assign(jsonSchema, { minLength: 1, maxLength: NAME_MAX_LENGTH });
  // Bounded integers that fit 32 bits: a page's limit, an HTTP status.
  if (jsonSchema.type === "integer" && jsonSchema.maximum <= 2 ** 31 - 1 && !jsonSchema.format)
    jsonSchema.format = "int32";
  if (zodSchema === petsSchema) jsonSchema.maxItems = LIST_LIMIT.max;
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
export const outputs = convert("output", {
  Pet: petSchema,
  Pets: petsSchema,
  PetStatus: petStatusSchema,
  Error: errorSchema,
  ...parameterSchemas,
});
export const inputs = convert("input", { NewPet: newPetSchema, PetStatus: petStatusSchema, ...parameterSchemas });
// A cursor's shape is checked where it is read (src/core/cursor.ts), to say "not a cursor this service issued".
for (const converted of [inputs, outputs])
  Object.assign(converted.listPets?.properties.cursor, { pattern: CURSOR_SHAPE.source });

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
export const componentSchemas = {
  Pet: component("Pet", outputs.Pet),
  NewPet: component("NewPet", inputs.NewPet),
  PetStatus: component("PetStatus", outputs.PetStatus),
  Pets: component("Pets", outputs.Pets),
  Error: component("Error", outputs.Error),
};
// The codes come from ERROR_STATUS, so that a new code is documented as soon as it exists.
export const ERROR_CODES = Object.keys(ERROR_STATUS) as (keyof typeof ERROR_STATUS)[];
Object.assign(componentSchemas.Error.properties.code, { enum: ERROR_CODES });
