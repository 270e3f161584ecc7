// The fixed headers and bounds of the documentation routes (./routes.ts), here so that their
// OpenAPI description (./headers.openapi.ts) states the same values.

/** Deploys change the document, so caches keep it briefly and then revalidate with the ETag. */
export const DOCUMENT_CACHE_CONTROL = "public, max-age=300";

/** The page runs no script and loads nothing: only its inline styles are allowed. */
export const PAGE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The longest If-None-Match compared with the document's ETag: a few ETags; a longer one is answered in full. */
export const IF_NONE_MATCH_MAX_LENGTH = 1024;

/** The reference page's bound, checked on every page the tests fetch (test/helpers/conformance.ts): about 190 KB today. */
export const PAGE_MAX_LENGTH = 512 * 1024;
