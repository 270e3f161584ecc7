// What the client reads off an answer besides its body.
import { ApiError, scrub } from "./errors.js";
import { linkTarget } from "./link.js";
import { retryAfterMs } from "./retry.js";
import { BOOKMARK, ERROR_CODES } from "./wire.js";

/** The newer of two D1 bookmarks (they sort as strings do), ignoring what is not one: a bookmark of another shape is never kept. */
export const newerBookmark = (kept: string | undefined, seen: string | null): string | undefined =>
  seen && BOOKMARK.test(seen) && (!kept || seen > kept) ? seen : kept;

/** The body as JSON, or undefined if it is not JSON. */
export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The ApiError of a non-2xx answer, whatever its body: the Error body's fields when it has
 * one, its code `unknown_code` when the API sends no such code (the message then names it).
 */
export const apiError = (response: Response, text: string): ApiError => {
  const body = parseJson(text) as { code?: unknown; message?: unknown } | undefined;
  const fromApi = typeof body?.code === "string" && typeof body.message === "string";
  const known = fromApi && ERROR_CODES.includes(body.code as string);
  const wait = retryAfterMs(response.headers.get("Retry-After"));
  return new ApiError(
    response.status,
    known ? (body?.code as ApiError["code"]) : fromApi ? "unknown_code" : "unexpected_response",
    !fromApi
      ? `HTTP ${response.status} without an Error body`
      : known
        ? (body.message as string)
        : `Code '${body.code}', which the API does not send: ${body.message}`,
    response.headers.get("X-Request-Id") ?? undefined,
    wait === undefined ? undefined : Math.ceil(wait / 1000),
  );
};

export type DeprecationWarning = {
  /** The operation, as the document names it. */
  operation: string;
  /** When it stops working (Sunset), if the answer said. */
  sunset?: Date;
  /** What replaces it (Link rel="successor-version"), if the answer said. */
  successor?: string;
  message: string;
};

/** The warning an answer carries in Deprecation (RFC 9745) or Sunset (RFC 8594), if any. */
export const deprecationOf = (operation: string, response: Response, url: string): DeprecationWarning | undefined => {
  const { headers } = response;
  if (!headers.has("Deprecation") && !headers.has("Sunset")) return undefined;
  const sunsetAt = Date.parse(headers.get("Sunset") ?? "");
  const sunset = Number.isNaN(sunsetAt) ? undefined : new Date(sunsetAt);
  // A successor that is not a URL is left out: a warning never fails the call it came with.
  const target = linkTarget(headers.get("Link"), "successor-version", url);
  const successor = target ? scrub(target.href) : undefined;
  const message = `${operation} is deprecated${sunset ? `, removed on ${sunset.toUTCString()}` : ""}${successor ? `; use ${successor}` : ""}.`;
  return { operation, sunset, successor, message };
};
