import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/**
 * Answers about pets are for the caller only: no shared or browser cache may keep them.
 * Mounted outside the routes and the 405 handling (src/index.ts), so errors carry it too.
 */
export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", "no-store");
});
