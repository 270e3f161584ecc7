// The three operations as MCP tools, each one declaration (./tool.ts): a tool takes what its
// operation takes, by the same zod rules, and runs by calling the operation itself, so that
// keys, scopes, limits, idempotency and the deprecation hold for agents as over HTTP.
import * as z from "zod/mini";
import { createPet } from "../core/create-pet";
import { getPet } from "../core/get-pet";
import { listPets, type PetsPage } from "../core/list-pets";
import { DEPRECATIONS, deprecationHeaders } from "../deprecation/deprecated-operation";
import { jsonText, keepJsonText } from "../lib/json-text";
import {
  cursorSchema,
  idempotencyKeySchema,
  idSchema,
  LIMIT_RULE,
  LIST_LIMIT,
  limitSchema,
  newPetSchema,
  petStatusSchema,
} from "../schemas";
import { component, object, parameterSchema, parameters, withDescription } from "./document-schemas";
import { declareTool } from "./tool";

/** list_pets' values of pages from the isolate's memory, each made once: a page is the same array on every call. */
const cachedPageValues = new WeakMap<PetsPage["pets"], { pets: PetsPage["pets"]; nextCursor?: string }>();

/**
 * list_pets' value. For a page from the isolate's memory, the value is made once and its
 * text kept (src/lib/json-text.ts), written around the page's own kept text, as
 * JSON.stringify writes the value, rather than the page serialized again.
 */
export const pageResult = ({ pets, nextCursor, fromCache }: PetsPage) => {
  const kept = fromCache ? cachedPageValues.get(pets) : undefined;
  if (kept && kept.nextCursor === nextCursor) return kept;
  const value = { pets, ...(nextCursor !== undefined && { nextCursor }) };
  if (fromCache) {
    const next = nextCursor === undefined ? "" : `,"nextCursor":${JSON.stringify(nextCursor)}`;
    keepJsonText(value, `{"pets":${jsonText(pets)}${next}}`);
    cachedPageValues.set(pets, value);
  }
  return value;
};

const listPetsTool = declareTool({
  name: "list_pets",
  title: "List pets",
  description:
    "One page of pets, by ascending id (GET /v1/pets). Pass nextCursor back as cursor for the next page; it is absent on the last.",
  arguments: z.strictObject({
    limit: z._default(limitSchema, LIST_LIMIT.default),
    status: z.optional(petStatusSchema),
    cursor: z.optional(cursorSchema),
  }),
  // limit is a JSON integer here, not the query's decimal digits: its description says so.
  inputSchema: () =>
    object(withDescription(parameters("/pets", "get"), "limit", `The most pets in the page: ${LIMIT_RULE}.`)),
  outputSchema: () => object({ pets: component("Pets"), nextCursor: { type: "string" } }, ["pets"]),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  operation: listPets,
  input: (args) => args,
  result: pageResult,
  status: 200,
});

const createPetTool = declareTool({
  name: "create_pet",
  title: "Add a pet",
  description:
    "Adds a pet (POST /v1/pets). Send an idempotencyKey of your own, and the same one again if you retry the call: a repeated call with the same key returns the same pet and never creates a second one.",
  // The pet body's rules, and idempotencyKey held to the Idempotency-Key header's own, never trimmed or converted.
  arguments: z.strictObject({ ...newPetSchema.def.shape, idempotencyKey: z.optional(idempotencyKeySchema) }),
  inputSchema: () => {
    const newPet = component("NewPet");
    const idempotencyKey = {
      ...parameterSchema("IdempotencyKey"),
      description: "Your own key for this pet (a UUID, say): the same key, retried, returns the same pet.",
    };
    return object({ ...(newPet.properties as object), idempotencyKey }, newPet.required as string[]);
  },
  outputSchema: () => component("Pet"),
  // Idempotent only with an idempotencyKey, which the arguments may leave out.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  operation: createPet,
  input: ({ idempotencyKey, ...pet }) => ({ pet, idempotencyKey }),
  result: ({ pet }) => pet,
  // As Idempotent-Replayed says over HTTP: the pet is the one an earlier call with the key created.
  meta: ({ replayed }) => (replayed ? { idempotentReplayed: true } : undefined),
  status: 201,
});

const getPetDeprecation = deprecationHeaders(DEPRECATIONS.getPet);
/** What get_pet's description and every one of its results say of its end. */
export const GET_PET_DEPRECATION = {
  sunset: getPetDeprecation.Sunset,
  replacedBy: "list_pets (GET /v1/pets) with the status filter",
};

const getPetTool = declareTool({
  name: "get_pet",
  title: "Get a pet (deprecated)",
  description: `Deprecated: removed on ${GET_PET_DEPRECATION.sunset}, and refused during announced brownouts before then; use ${GET_PET_DEPRECATION.replacedBy}. One pet by id (GET /v1/pets/{petId}).`,
  arguments: z.strictObject({ petId: idSchema }),
  inputSchema: () => object(parameters("/pets/{petId}", "get"), ["petId"]),
  outputSchema: () => component("Pet"),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  operation: getPet,
  input: (args) => args,
  result: ({ pet }) => pet,
  status: 200,
  notice: {
    text: `get_pet is deprecated: removed on ${GET_PET_DEPRECATION.sunset}; use ${GET_PET_DEPRECATION.replacedBy}.`,
    meta: { deprecation: GET_PET_DEPRECATION },
  },
});

const TOOLS = { list_pets: listPetsTool, create_pet: createPetTool, get_pet: getPetTool };

export type ToolName = keyof typeof TOOLS;
export const isToolName = (name: unknown): name is ToolName => typeof name === "string" && Object.hasOwn(TOOLS, name);

/** The tool of this name. */
export const toolNamed = (name: ToolName) => TOOLS[name];

/** The arguments as the tool of this name takes them, or the refusal that names what is wrong with them. */
export const checkArguments = <Name extends ToolName>(name: Name, args: unknown) =>
  (TOOLS[name] as (typeof TOOLS)[Name]).check(args);

const listing = () =>
  Object.values(TOOLS).map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
    name,
    title,
    description,
    inputSchema: inputSchema(),
    outputSchema: outputSchema(),
    annotations,
  }));
let listed: ReturnType<typeof listing> | undefined;
/** tools/list's tools, built on first use: a request that never reaches /mcp (most) does not pay for them. */
export const tools = () => {
  listed ??= listing();
  return listed;
};
