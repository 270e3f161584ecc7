// The OpenAPI description of the operations in ./routes.ts. Only the generator
// (scripts/openapi.ts) imports this.
import { json, OPENAPI_VERSION, type OperationSpec } from "./common.openapi";
import { PAGE_MAX_LENGTH } from "./documentation-headers";

export const DOCUMENTATION_OPERATIONS: OperationSpec[] = [
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
          properties: { openapi: { const: OPENAPI_VERSION }, info: { type: "object" }, paths: { type: "object" } },
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
        content: {
          "text/html": { schema: { type: "string", pattern: "^<!doctype html>", maxLength: PAGE_MAX_LENGTH } },
        },
        headers: ["ContentSecurityPolicy"],
      },
    },
    errors: [],
  },
];
