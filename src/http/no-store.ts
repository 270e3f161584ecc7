import { withHeaders } from "./answer-headers";
import { headerPart } from "./header-parts";

/**
 * Answers about pets are for the caller only: no shared or browser cache may keep them.
 * Declared ahead of the routes (src/app.ts), so that errors, 404s and 405s carry it too.
 */
export const noStore = withHeaders(headerPart({ "Cache-Control": "no-store" }));
