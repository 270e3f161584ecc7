import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env";

// Response headers. The middlewares add theirs to whole groups of answers, errors
// included (src/index.ts mounts them outside the routes and the 405 handling).

/** Answers about pets are for the caller only: no shared or browser cache may keep them. */
export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", "no-store");
});

// RFC 9745 (Deprecation, as "@" + Unix seconds) and RFC 8594 (Sunset). The
// deprecation date must not be later than the sunset.
export const GET_PET_DEPRECATED_AT = Date.UTC(2026, 10, 21) / 1000;
export const GET_PET_SUNSET = new Date(Date.UTC(2030, 11, 5));

const DEPRECATION_HEADERS = [
  ["Deprecation", `@${GET_PET_DEPRECATED_AT}`],
  ["Sunset", GET_PET_SUNSET.toUTCString()],
  ["Link", '</v1/pets>; rel="successor-version"'],
] as const;

/** On every answer of the deprecated GET /v1/pets/{petId}. */
export const deprecated = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  for (const [name, value] of DEPRECATION_HEADERS) c.res.headers.set(name, value);
});

/** RFC 8288: the request's own URL with the given query (empty values left out), as the next page. */
export const nextLink = (requestUrl: string, query: Record<string, string | undefined>) => {
  const next = new URL(requestUrl);
  next.search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]),
  ).toString();
  return `<${next}>; rel="next"`;
};
