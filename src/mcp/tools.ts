// The three operations as MCP tools. Their input and output schemas, get_pet's too, are read from the
// served document (openapi.json, itself generated from the zod schemas), so that a tool
// takes and gives exactly what its operation does; a tool runs by calling the operation
// itself (./call.ts), so that keys, scopes, limits, idempotency and the deprecation hold
// for agents as they do over HTTP.
import openapi from "../../openapi.json";
import { DEPRECATIONS, deprecationHeaders } from "../deprecation/deprecated-operation";
import { LIMIT_RULE } from "../schemas";

type Schema = Record<string, unknown>;
const document = openapi as unknown as {
  components: { schemas: Record<string, Schema>; parameters: Record<string, { schema: Schema }> };
  paths: Record<string, Record<string, { parameters?: { name: string; schema: Schema; description?: string }[] }>>;
};

/** OpenAPI's own formats, which JSON Schema 2020-12 does not define: a strict validator refuses them. */
const OPENAPI_FORMATS = new Set(["int32", "int64"]);

/**
 * A schema as JSON Schema 2020-12 states it, as MCP clients read one alone: every `$ref` to
 * the document's components written out, without OpenAPI's `example` and its own formats.
 */
const inline = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(inline);
  if (schema === null || typeof schema !== "object") return schema;
  const { $ref, example: _example, ...rest } = schema as Schema & { $ref?: string; example?: unknown };
  if ($ref) return inline(document.components.schemas[$ref.split("/").at(-1) ?? ""]);
  if (OPENAPI_FORMATS.has(rest.format as string)) delete rest.format;
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inline(value)]));
};
const component = (name: string) => inline(document.components.schemas[name]) as Schema;
const object = (properties: Record<string, unknown>, required: string[] = []): Schema => ({
  type: "object",
  properties,
  ...(required.length > 0 && { required }),
  additionalProperties: false,
});
const parameters = (path: string, method: string) =>
  Object.fromEntries(
    (document.paths[path]?.[method]?.parameters ?? [])
      .filter((parameter) => "name" in parameter)
      .map(({ name, schema, description }) => [name, { ...(inline(schema) as Schema), description }]),
  );

/** The properties, with one of them described anew. */
const withDescription = (properties: Record<string, unknown>, name: string, description: string) => ({
  ...properties,
  [name]: { ...(properties[name] as Schema), description },
});

const getPet = deprecationHeaders(DEPRECATIONS.getPet);
/** What get_pet's description and every one of its results say of its end. */
export const GET_PET_DEPRECATION = {
  sunset: getPet.Sunset,
  replacedBy: "list_pets (GET /v1/pets) with the status filter",
};

const buildTools = () => {
  const newPet = component("NewPet");
  return [
    {
      name: "list_pets",
      title: "List pets",
      description:
        "One page of pets, by ascending id (GET /v1/pets). Pass nextCursor back as cursor for the next page; it is absent on the last.",
      // limit is a JSON integer here, not the query's decimal digits: its description says so.
      inputSchema: object(
        withDescription(parameters("/pets", "get"), "limit", `The most pets in the page: ${LIMIT_RULE}.`),
      ),
      outputSchema: object({ pets: component("Pets"), nextCursor: { type: "string" } }, ["pets"]),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: "create_pet",
      title: "Add a pet",
      description:
        "Adds a pet (POST /v1/pets). Send an idempotencyKey of your own, and the same one again if you retry the call: a repeated call with the same key returns the same pet and never creates a second one.",
      inputSchema: object(
        {
          ...(newPet.properties as Schema),
          idempotencyKey: {
            ...(inline(document.components.parameters.IdempotencyKey?.schema) as Schema),
            description: "Your own key for this pet (a UUID, say): the same key, retried, returns the same pet.",
          },
        },
        newPet.required as string[],
      ),
      outputSchema: component("Pet"),
      // Idempotent only with an idempotencyKey, which the arguments may leave out.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    {
      name: "get_pet",
      title: "Get a pet (deprecated)",
      description: `Deprecated: removed on ${GET_PET_DEPRECATION.sunset}, and refused during announced brownouts before then; use ${GET_PET_DEPRECATION.replacedBy}. One pet by id (GET /v1/pets/{petId}).`,
      inputSchema: object(parameters("/pets/{petId}", "get"), ["petId"]),
      outputSchema: component("Pet"),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
  ] as const;
};

let built: ReturnType<typeof buildTools> | undefined;
/** The tools, built on first use: a request that never reaches /mcp (most) does not pay for them. */
export const tools = () => {
  built ??= buildTools();
  return built;
};

export type ToolName = ReturnType<typeof buildTools>[number]["name"];
export const isToolName = (name: unknown): name is ToolName => tools().some((tool) => tool.name === name);
