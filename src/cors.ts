import type { Context } from "hono";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env";

// Pages on other origins call the API from the browser with the key in Authorization.
// src/index.ts mounts these before authentication and rate limiting, so a preflight is
// answered without a KV read, a D1 query or a rate-limit count, and every answer to an
// allowed origin carries the CORS headers, errors included.

/** The request headers the API reads. Authorization is named: a `*` would not cover it. */
const REQUEST_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "x-d1-bookmark", "X-Request-Id"];
/** The response headers a client needs, beyond the few a browser shows scripts anyway. */
const EXPOSED_HEADERS = [
  "Link",
  "Location",
  "x-d1-bookmark",
  "X-Request-Id",
  "Retry-After",
  "Idempotent-Replayed",
  "Deprecation",
  "Sunset",
];
/** How long a browser may reuse a preflight's answer; Chromium caps it at two hours. */
const PREFLIGHT_MAX_AGE_S = 7200;

const parsedSettings = new Map<string, "*" | Set<string>>();
/** ALLOWED_ORIGINS: "*", or origins separated by spaces or commas; empty allows none. */
const allowedOrigins = (setting = ""): "*" | Set<string> => {
  let parsed = parsedSettings.get(setting);
  if (!parsed) {
    const origins = setting.split(/[\s,]+/).filter(Boolean);
    parsed = origins.includes("*") ? "*" : new Set(origins);
    parsedSettings.set(setting, parsed);
  }
  return parsed;
};

const allowOrigin = (origin: string, c: Context<AppEnv>) => {
  const allowed = allowedOrigins(c.env.ALLOWED_ORIGINS);
  return allowed === "*" ? "*" : allowed.has(origin) ? origin : null;
};

/**
 * CORS for a path of the pets operations with these methods. Only a real preflight (an
 * OPTIONS with Access-Control-Request-Method) is answered here, with 204; any other
 * OPTIONS gets the 405 with Allow that every method the path lacks gets.
 */
const petsCors = (methods: string[]) => {
  const handler = cors({
    origin: allowOrigin,
    allowMethods: methods,
    allowHeaders: REQUEST_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === "OPTIONS" && !c.req.header("Access-Control-Request-Method")) return next();
    return handler(c, next);
  });
};

export const petsCollectionCors = petsCors(["GET", "HEAD", "POST"]);
export const petCors = petsCors(["GET", "HEAD"]);

/** The OpenAPI document is public: any origin may read it (a hosted editor or viewer, say). */
export const documentCors = cors({
  origin: "*",
  allowMethods: ["GET", "HEAD"],
  allowHeaders: ["If-None-Match"],
  exposeHeaders: ["ETag"],
  maxAge: PREFLIGHT_MAX_AGE_S,
});
