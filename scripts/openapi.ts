// `npm run openapi` writes openapi.json; `npm run check:openapi` (part of `npm test`)
// fails when the committed copy differs from what the code describes, so the document
// the Worker serves can never fall behind it.
//
// These files only assemble (this one the document, scripts/lib/openapi-schemas.ts its
// schemas, scripts/lib/openapi-operations.ts each operation): each operation's description
// lives beside its route (src/rest/routes.openapi.ts, src/document/routes.openapi.ts), what they share in
// src/document/common.openapi.ts, and the schemas and their wording in src/schemas.ts,
// which zod converts to JSON Schema in Node, so that none of it reaches the Worker's bundle.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { OpenAPIV3_1 } from "openapi-types";
import { ERROR_STATUS } from "../src/core/error-codes";
import { API, BEARER_AUTH, OPENAPI_VERSION, SERVERS, TAGS } from "../src/document/common.openapi";
import { REQUEST_HEADERS, RESPONSE_HEADERS, type ResponseHeader } from "../src/document/headers.openapi";
import { BODY_EXAMPLES } from "../src/rest/routes.openapi";
import { errorStatusesOf, headerExample, operationObject, sharedErrorResponses } from "./lib/openapi-operations";
import { componentSchemas, OPERATIONS } from "./lib/openapi-schemas";

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
  openapi: OPENAPI_VERSION,
  info: API,
  servers: SERVERS,
  security: [{ bearerAuth: [] }],
  tags: TAGS,
  paths,
  components: {
    schemas: componentSchemas,
    examples: Object.fromEntries(Object.entries(BODY_EXAMPLES).map(([name, value]) => [name, { value }])),
    responses: sharedErrorResponses(OPERATIONS),
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
