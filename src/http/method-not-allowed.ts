import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { handleMethodNotAllowed } from "./errors";
import type { routeMethods } from "./route-methods";

/**
 * A 405 with Allow, in place of the 404 a known path gives a method that none of its
 * routes answers. Outside the routes, so that it sees what they answered; a 404 that an
 * operation threw (an unknown pet) stays one.
 */
export const methodNotAllowed = (methods: ReturnType<typeof routeMethods>) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (c.res.status !== 404 || c.error) return;
    const allowed = methods.at(c.req.path);
    if (allowed.length === 0 || allowed.includes(c.req.method)) return;
    // Dropped first, so that Hono does not copy the 404's headers onto the 405 (its Content-Length
    // among them): the 405 is written with the request's declared headers, as the 404 was.
    c.res = undefined;
    c.res = handleMethodNotAllowed(c, allowed);
  });
