import type { Hono } from "hono";
import { DEPRECATIONS, deprecationHeaders } from "../deprecation/deprecated-operation";
import type { AppEnv } from "../env";
import { withHeaders } from "./answer-headers";
import { headerPart } from "./header-parts";

/**
 * Puts each deprecated operation's headers on every answer of its paths: outside the
 * routes and the 405 handling, so that its errors carry them too.
 */
export const markDeprecatedOperations = (app: Hono<AppEnv>) => {
  for (const deprecation of Object.values(DEPRECATIONS)) {
    const marked = withHeaders(headerPart(deprecationHeaders(deprecation)));
    for (const path of deprecation.paths) app.use(path, marked);
  }
};
