import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { declareHeaders } from "./answer-headers";
import { type HeaderPart, headerPart } from "./header-parts";
import type { routeMethods } from "./route-methods";

// Pages on other origins call the API from the browser with the key in Authorization.
// src/app.ts mounts these before authentication and rate limiting, so a preflight is
// answered without a KV read, a D1 query or a rate-limit count, and every answer under
// /v1 to an allowed origin carries the CORS headers, errors and unknown paths included.
// Written here rather than with hono/cors, which sets its headers before the handler
// runs: touching the response that early makes Hono build each answer's Response three
// more times (the figures, from `npm run bench` with hono/cors swapped in, are in this
// file's commit history).

/** The request headers the API reads. Authorization is named: a `*` would not cover it. */
const REQUEST_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "x-d1-bookmark", "X-Request-Id"];
/** The response headers a client needs, beyond the few a browser shows scripts anyway. */
export const EXPOSED_HEADERS = [
  "Link",
  "Location",
  "x-d1-bookmark",
  "X-Request-Id",
  "Retry-After",
  "Idempotent-Replayed",
  "Deprecation",
  "Sunset",
  "Api-Key-Expiration",
  "RateLimit-Policy",
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

/** The Access-Control-Allow-Origin for `origin` under ALLOWED_ORIGINS, or null when it is not allowed. */
export const allowOrigin = (origin: string, c: Context<AppEnv>) => {
  const allowed = allowedOrigins(c.env.ALLOWED_ORIGINS);
  return allowed === "*" ? "*" : allowed.has(origin) ? origin : null;
};

type CorsOptions = {
  /** The Access-Control-Allow-Origin for the request's Origin ("" when it sent none), or null for none. */
  origin: (origin: string, c: Context<AppEnv>) => string | null;
  /** Whether the answer depends on the request's Origin (Vary: Origin). */
  varyOrigin: boolean;
  /** The methods a preflight allows at the request's path. */
  allowMethods: (c: Context<AppEnv>) => string[];
  allowHeaders: string[];
  exposeHeaders: string[];
};

/**
 * Answers a preflight (an OPTIONS that reaches it) with 204 and the CORS headers; on any
 * other request, declares the CORS headers for its answer, errors included.
 */
const corsMiddleware = ({ origin, varyOrigin, allowMethods, allowHeaders, exposeHeaders }: CorsOptions) => {
  const [allowed, exposed, maxAge] = [allowHeaders.join(","), exposeHeaders.join(","), String(PREFLIGHT_MAX_AGE_S)];
  const vary: Record<string, string> = varyOrigin ? { Vary: "Origin" } : {};
  // One part per Access-Control-Allow-Origin it answers: "*", an origin its settings allow, or
  // (/mcp's) the server's own loopback origin; so, few.
  const parts = new Map<string | null, HeaderPart>();
  const partFor = (allowOrigin: string | null) => {
    let part = parts.get(allowOrigin);
    if (!part) {
      const allowing: Record<string, string> = allowOrigin ? { "Access-Control-Allow-Origin": allowOrigin } : {};
      part = headerPart({ ...allowing, "Access-Control-Expose-Headers": exposed }, vary);
      parts.set(allowOrigin, part);
    }
    return part;
  };
  return createMiddleware<AppEnv>((c, next) => {
    const allowOrigin = origin(c.req.header("Origin") ?? "", c);
    if (c.req.method === "OPTIONS") {
      const headers = new Headers();
      if (allowOrigin) headers.set("Access-Control-Allow-Origin", allowOrigin);
      headers.set("Access-Control-Expose-Headers", exposed);
      if (varyOrigin) headers.append("Vary", "Origin");
      headers.set("Access-Control-Max-Age", maxAge);
      headers.set("Access-Control-Allow-Methods", allowMethods(c).join(","));
      headers.set("Access-Control-Allow-Headers", allowed);
      headers.append("Vary", "Access-Control-Request-Headers");
      return Promise.resolve(new Response(null, { headers, status: 204, statusText: "No Content" }));
    }
    declareHeaders(c, partFor(allowOrigin));
    return next();
  });
};

/**
 * CORS for every path under /v1 but the document (documentCors), unknown ones included,
 * so that a page can read every answer, a 404 too. Only a real preflight (an OPTIONS
 * with Access-Control-Request-Method) is answered here, with 204 and the methods of
 * the path's routes; any other OPTIONS gets the 405 with Allow that every method the
 * path lacks gets.
 */
export const apiCors = (methods: ReturnType<typeof routeMethods>) => {
  const handler = corsMiddleware({
    origin: allowOrigin,
    varyOrigin: true,
    allowMethods: (c) => {
      const atPath = methods.at(c.req.path);
      return atPath.length > 0 ? atPath : methods.all();
    },
    allowHeaders: REQUEST_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
  });
  const preflightOnly = onRealPreflight(handler);
  return createMiddleware<AppEnv>((c, next) => (c.req.path === DOCUMENT_PATH ? next() : preflightOnly(c, next)));
};

/** Only a real preflight (an OPTIONS with Access-Control-Request-Method) is answered by `cors`; any other OPTIONS goes on. */
const onRealPreflight = (cors: ReturnType<typeof corsMiddleware>) =>
  createMiddleware<AppEnv>((c, next) =>
    c.req.method === "OPTIONS" && !c.req.header("Access-Control-Request-Method") ? next() : cors(c, next),
  );

/** CORS on `options` for a path of another concern's (the MCP endpoint's), a real preflight answered as the API's are. */
export const corsFor = (options: CorsOptions) => onRealPreflight(corsMiddleware(options));

export const DOCUMENT_PATH = "/v1/openapi.json";

/** The OpenAPI document is public: any origin may read it (a hosted editor or viewer, say). */
export const documentCors = corsMiddleware({
  origin: () => "*",
  varyOrigin: false,
  allowMethods: () => ["GET", "HEAD"],
  allowHeaders: ["If-None-Match"],
  exposeHeaders: ["ETag"],
});
