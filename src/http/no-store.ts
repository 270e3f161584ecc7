import { headerPart, withHeaders } from "./answer-headers";

/**
 * Answers about pets are for the caller only: no shared or browser cache may keep them.
 * Mounted outside the routes and the 405 handling (src/app.ts), so errors carry it too.
 */
export const noStore = withHeaders(headerPart({ "Cache-Control": "no-store" }));
