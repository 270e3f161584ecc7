import { Hono } from "hono";
import openapi from "../../openapi.json";
import type { AppEnv } from "../env";
import { renderReferencePage } from "../reference-page";
import type { OpenApi } from "../reference-page/document";
import { sha256Hex } from "../sha256";

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
// Deploys change the document, so caches keep it briefly and then revalidate with the ETag.
const CACHE_CONTROL = "public, max-age=300";

let etag: Promise<string> | undefined;
/** A strong ETag: the SHA-256 of the body, computed once per isolate. */
const documentEtag = () => {
  etag ??= sha256Hex(documentBody()).then((hex) => `"${hex}"`);
  return etag;
};

/** RFC 9110: If-None-Match uses the weak comparison, and `*` matches any current representation. */
const isUnchanged = (ifNoneMatch: string, current: string) =>
  ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === current);

let page: { apiBase: string; html: string } | undefined;
/** Rendered once per isolate (an isolate serves one host), with curl examples for the host it is served from. */
const referencePage = (apiBase: string) => {
  if (page?.apiBase !== apiBase) page = { apiBase, html: renderReferencePage(document, apiBase) };
  return page.html;
};
// The page runs no script and loads nothing: only its inline styles are allowed.
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const documentationRoutes = new Hono<AppEnv>()
  .get("/openapi.json", async (c) => {
    const current = await documentEtag();
    const headers = { ETag: current, "Cache-Control": CACHE_CONTROL };
    const ifNoneMatch = c.req.header("If-None-Match");
    if (ifNoneMatch && isUnchanged(ifNoneMatch, current)) return c.body(null, 304, headers);
    return c.body(documentBody(), 200, { ...headers, "Content-Type": "application/json" });
  })
  .get("/docs", (c) => {
    const apiBase = new URL(c.req.url).origin + c.req.path.replace(/\/docs$/, "");
    return c.html(referencePage(apiBase), 200, { "Content-Security-Policy": CONTENT_SECURITY_POLICY });
  });
