// The client's wire types, generated from openapi.json: its schemas, and the query of
// listPets from the operation's parameters. The client's version follows the document's
// info.version.
//
//   npm run client:types   writes client/src/wire.ts and client/package.json's version
//   npm run check:client   fails if either is stale (scripts/check-client.ts; npm test runs it)
//
// json-schema-to-typescript rather than openapi-typescript: the latter, like
// @hey-api/openapi-ts, prints through TypeScript's compiler API, which TypeScript 7 lacks.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { compile, type JSONSchema } from "json-schema-to-typescript";
import type { OpenAPIV3_1 } from "openapi-types";

const ROOT = path.resolve(import.meta.dirname, "..");
const WIRE = path.join(ROOT, "client/src/wire.ts");
const PACKAGE = path.join(ROOT, "client/package.json");

/** The document's schemas under the names the client exports (Error would shadow the global). */
const NAMES: Record<string, string> = { Pet: "Pet", NewPet: "NewPet", PetStatus: "PetStatus", Error: "ErrorBody" };

const BANNER = `// Generated from openapi.json by \`npm run client:types\` (scripts/client-types.ts): do not edit.
`;

/**
 * The schemas with their references renamed. A reference keeps nothing beside it (a
 * description, a default): the generator would make each such one a type of its own.
 */
const renamingRefs = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(renamingRefs);
  if (typeof schema !== "object" || schema === null) return schema;
  if ("$ref" in schema) {
    const name = String(schema.$ref).replace("#/components/schemas/", "");
    return { $ref: `#/$defs/${NAMES[name] ?? name}` };
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, renamingRefs(value)]));
};

/** listPets' query parameters, as one object schema. */
const listPetsQuery = (document: OpenAPIV3_1.Document): JSONSchema => {
  const parameters = (document.paths?.["/pets"]?.get?.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
  const query = parameters.filter((parameter) => parameter.in === "query");
  return {
    description: "The query of listPets.",
    type: "object",
    additionalProperties: false,
    properties: Object.fromEntries(query.map(({ name, description, schema }) => [name, { ...schema, description }])),
  } as JSONSchema;
};

export const generateWireTypes = async (document: OpenAPIV3_1.Document): Promise<string> => {
  const schemas = document.components?.schemas ?? {};
  const $defs = Object.fromEntries(
    Object.entries(NAMES).map(([name, exported]) => [exported, { ...(schemas[name] as object), title: exported }]),
  );
  $defs.ListPetsQuery = { ...(listPetsQuery(document) as object), title: "ListPetsQuery" };
  const root = renamingRefs({ title: "Wire", $defs, type: "object", additionalProperties: false });
  const types = await compile(root as JSONSchema, "Wire", {
    bannerComment: "",
    format: false,
    unreachableDefinitions: true,
    additionalProperties: false,
  });
  // The root is only there to hold the definitions, which say so in each comment.
  const withoutRoot = types
    .replace(/^export interface Wire \{\s*\}\n/m, "")
    .replaceAll(/ \*\s*\n \* This interface was referenced by .*\n \* via the `definition` ".*"\.\n/g, "");
  const sunset = (document.components?.headers?.Sunset as OpenAPIV3_1.HeaderObject | undefined)?.schema as
    | { const?: string }
    | undefined;
  const parameters = document.components?.parameters ?? {};
  const pattern = (name: string) =>
    ((parameters[name] as OpenAPIV3_1.ParameterObject | undefined)?.schema as { pattern?: string } | undefined)
      ?.pattern;
  return `${BANNER}${withoutRoot}
/** When getPet is removed (its Sunset header). */
export const GET_PET_SUNSET = ${JSON.stringify(sunset?.const)};
/** Every PetStatus, for the client to check answers with. */
export const PET_STATUSES: readonly string[] = ${JSON.stringify((schemas.PetStatus as { enum?: string[] } | undefined)?.enum)};
/** Every code of the API's Error body, for the client to tell them from codes the API does not send. */
export const ERROR_CODES: readonly string[] = ${JSON.stringify((schemas.Error as { properties?: { code?: { enum?: string[] } } } | undefined)?.properties?.code?.enum)};
/** An x-d1-bookmark as the API takes it (the Bookmark parameter). */
export const BOOKMARK = new RegExp(${JSON.stringify(pattern("Bookmark"))});
/** An Idempotency-Key as the API takes it (the IdempotencyKey parameter). */
export const IDEMPOTENCY_KEY = new RegExp(${JSON.stringify(pattern("IdempotencyKey"))});
`;
};

const readDocument = () => JSON.parse(readFileSync(path.join(ROOT, "openapi.json"), "utf8")) as OpenAPIV3_1.Document;

/** What differs from what openapi.json makes: the wire types, the version. */
export const staleClientFiles = async (): Promise<string[]> => {
  const document = readDocument();
  const wire = await generateWireTypes(document);
  const { version } = JSON.parse(readFileSync(PACKAGE, "utf8"));
  return [
    ...(existsSync(WIRE) && readFileSync(WIRE, "utf8") === wire ? [] : ["client/src/wire.ts"]),
    ...(version === document.info.version
      ? []
      : [`client/package.json's version (${version}, not ${document.info.version})`]),
  ];
};

const main = async () => {
  const document = readDocument();
  const stale = await staleClientFiles();
  writeFileSync(WIRE, await generateWireTypes(document));
  const manifest = JSON.parse(readFileSync(PACKAGE, "utf8"));
  writeFileSync(PACKAGE, `${JSON.stringify({ ...manifest, version: document.info.version }, null, 2)}\n`);
  console.log(stale.length > 0 ? `Wrote ${stale.join(" and ")}.` : "Already up to date.");
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
