// The tools' JSON Schemas, read from the served document (openapi.json, itself generated from
// the zod schemas that check every request), as MCP's clients read a schema alone: JSON
// Schema 2020-12, every `$ref` written out, without OpenAPI's `example` and its own formats.
import openapi from "../../openapi.json";

export type JsonSchema = Record<string, unknown>;
const document = openapi as unknown as {
  components: { schemas: Record<string, JsonSchema>; parameters: Record<string, { schema: JsonSchema }> };
  paths: Record<string, Record<string, { parameters?: { name: string; schema: JsonSchema; description?: string }[] }>>;
};

/** OpenAPI's own formats, which JSON Schema 2020-12 does not define: a strict validator refuses them. */
const OPENAPI_FORMATS = new Set(["int32", "int64"]);

const inline = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(inline);
  if (schema === null || typeof schema !== "object") return schema;
  const { $ref, example: _example, ...rest } = schema as JsonSchema & { $ref?: string; example?: unknown };
  if ($ref) return inline(document.components.schemas[$ref.split("/").at(-1) ?? ""]);
  if (OPENAPI_FORMATS.has(rest.format as string)) delete rest.format;
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inline(value)]));
};

/** A schema of the document's components. */
export const component = (name: string) => inline(document.components.schemas[name]) as JsonSchema;

/** A shared parameter's schema (an Idempotency-Key's, say). */
export const parameterSchema = (name: string) => inline(document.components.parameters[name]?.schema) as JsonSchema;

/** An object of these properties, no other. */
export const object = (properties: Record<string, unknown>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  ...(required.length > 0 && { required }),
  additionalProperties: false,
});

/** An operation's own parameters (not the shared headers it refers to), as properties with their descriptions. */
export const parameters = (path: string, method: string) =>
  Object.fromEntries(
    (document.paths[path]?.[method]?.parameters ?? [])
      .filter((parameter) => "name" in parameter)
      .map(({ name, schema, description }) => [name, { ...(inline(schema) as JsonSchema), description }]),
  );

/** The properties, with one of them described anew. */
export const withDescription = (properties: Record<string, unknown>, name: string, description: string) => ({
  ...properties,
  [name]: { ...(properties[name] as JsonSchema), description },
});
