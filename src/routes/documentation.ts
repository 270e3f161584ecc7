import { Hono } from "hono";
import document from "../../openapi.json";
import type { AppEnv } from "../env";

// The OpenAPI document and its reference page: public (they describe, they do not
// operate). The document is generated in Node (`npm run openapi`) and imported as
// data, so no schema-conversion code reaches the bundle; the page's scripts are
// static assets (see scripts/docs-assets.ts), not part of the bundle either.

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
  etag ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(documentBody())).then((digest) => {
    const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
    return `"${base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}"`;
  });
  return etag;
};

/** RFC 9110: If-None-Match uses the weak comparison, and `*` matches any current representation. */
const isUnchanged = (ifNoneMatch: string, current: string) =>
  ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === current);

// The page loads Swagger UI from this Worker's static assets, never from a CDN.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Petstore edge API reference</title>
<link rel="icon" type="image/png" href="/v1/docs/favicon-32x32.png">
<link rel="stylesheet" href="/v1/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"><noscript>The API reference needs JavaScript; the document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript></div>
<script src="/v1/docs/swagger-ui-bundle.js"></script>
<script src="/v1/docs/init.js"></script>
</body>
</html>
`;
// Only this origin: a page that cannot load or send anything elsewhere. Swagger UI
// sets inline styles, hence 'unsafe-inline' for styles (never for scripts).
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const documentationRoutes = new Hono<AppEnv>()
  .get("/openapi.json", async (c) => {
    const current = await documentEtag();
    const headers = { ETag: current, "Cache-Control": CACHE_CONTROL };
    const ifNoneMatch = c.req.header("If-None-Match");
    if (ifNoneMatch && isUnchanged(ifNoneMatch, current)) return c.body(null, 304, headers);
    return c.body(documentBody(), 200, { ...headers, "Content-Type": "application/json" });
  })
  .get("/docs", (c) => c.html(PAGE, 200, { "Content-Security-Policy": CONTENT_SECURITY_POLICY }));
