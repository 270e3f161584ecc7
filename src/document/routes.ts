import openapi from "../../openapi.json";
import { newApp } from "../http/router";
import { sha256Hex } from "../lib/sha256";
import { apiIndex } from "./api-index";
import {
  DOCUMENT_CACHE_CONTROL,
  IF_NONE_MATCH_MAX_LENGTH,
  PAGE_CONTENT_SECURITY_POLICY,
} from "./documentation-headers";
import { renderReferencePage } from "./reference-page";
import type { OpenApi } from "./reference-page/document";

// The OpenAPI document and its reference page: public (they describe, they do not
// operate). The document is generated in Node (`npm run openapi`) and imported as
// data, so no schema-conversion code reaches the bundle; the page is rendered from it
// (src/reference-page/).

const document = openapi as unknown as OpenApi.Document;

// Serialized on first use, not at startup: global scope stays definitions only.
let body: string | undefined;
const documentBody = () => {
  body ??= JSON.stringify(document);
  return body;
};

let etag: Promise<string> | undefined;
/** A strong ETag: the SHA-256 of the body, computed once per isolate. */
const documentEtag = () => {
  etag ??= sha256Hex(documentBody()).then((hex) => `"${hex}"`);
  return etag;
};

/** RFC 9110: If-None-Match uses the weak comparison, and `*` matches any current representation. */
const isUnchanged = (ifNoneMatch: string, current: string) =>
  ifNoneMatch.length <= IF_NONE_MATCH_MAX_LENGTH &&
  (ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === current));

let page: { apiBase: string; html: string } | undefined;
/** Rendered once per isolate (an isolate serves one host), with curl examples for the host it is served from. */
const referencePage = (apiBase: string) => {
  if (page?.apiBase !== apiBase) page = { apiBase, html: renderReferencePage(document, apiBase) };
  return page.html;
};

export const documentationRoutes = newApp()
  .get("/", apiIndex)
  .get("/openapi.json", async (c) => {
    const current = await documentEtag();
    const headers = { ETag: current, "Cache-Control": DOCUMENT_CACHE_CONTROL };
    const ifNoneMatch = c.req.header("If-None-Match");
    if (ifNoneMatch && isUnchanged(ifNoneMatch, current)) return c.body(null, 304, headers);
    return c.body(documentBody(), 200, { ...headers, "Content-Type": "application/json" });
  })
  .get("/docs", (c) => {
    const apiBase = new URL(c.req.url).origin + c.req.path.replace(/\/docs$/, "");
    return c.html(referencePage(apiBase), 200, { "Content-Security-Policy": PAGE_CONTENT_SECURITY_POLICY });
  });
