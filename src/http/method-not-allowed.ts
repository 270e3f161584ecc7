import type { NotFoundHandler } from "hono";
import type { AppEnv } from "../env";
import { handleMethodNotAllowed, handleNotFound } from "./errors";
import type { routeMethods } from "./route-methods";

/**
 * The app's not-found handler: a 405 with Allow, in place of the 404, for a known path that
 * no route of the request's method answers. It runs where the routes end, inside every
 * middleware, so that its answers carry their headers too; a 404 that an operation threw
 * (an unknown pet) goes to the error handler, and stays one.
 */
export const notFoundOrMethodNotAllowed =
  (methods: ReturnType<typeof routeMethods>): NotFoundHandler<AppEnv> =>
  (c) => {
    const allowed = methods.at(c.req.path);
    if (allowed.length === 0 || allowed.includes(c.req.method)) return handleNotFound(c);
    return handleMethodNotAllowed(c, allowed);
  };
