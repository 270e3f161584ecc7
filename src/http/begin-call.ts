// What both doors do for every admitted call before they read its input: count it once
// against the key's rate limit, and open its D1 session from the bookmark the client sent;
// its answer then states the limit's policy and carries the session's latest bookmark.
import { createMiddleware } from "hono/factory";
import { safeParse } from "zod/v4/core";
import { openSegmentSessions, type SegmentSessions } from "../db/segment-sessions";
import type { AppEnv } from "../env";
import { isWithinLimit } from "../lib/limiters";
import { BOOKMARK, sessionHeadersSchema } from "../schemas";
import { declareOwnHeader } from "./answer-headers";
import { declareRateLimitPolicy, rateLimited } from "./rate-limit";
import { faultContext } from "./request-log";
import { invalid } from "./validate";

declare module "hono" {
  interface ContextVariableMap {
    /** The request's D1 sessions, each opened on its first query (cache hits never open one). */
    db: SegmentSessions;
    /** Whether the call is within its key's rate limit: each door says how it refuses one that is not. */
    withinLimit: boolean;
  }
}

export const BOOKMARK_HEADER = "x-d1-bookmark";

/** The 400 of a bookmark that is not one D1 issued, in its header schema's words. */
const refusedBookmark = (sent: string) => {
  const headers = { [BOOKMARK_HEADER]: sent };
  const verdict = safeParse(sessionHeadersSchema, headers);
  return invalid("header", verdict.error?.issues ?? [], headers);
};

/**
 * Counts the call and opens its session. A bookmark that is not one D1 issued opens none of
 * it: the call, counted, is refused with its header's rule (a 400, ahead of the door's answer
 * to a call over the limit), and nothing reaches D1 with it.
 */
export const beginCall = createMiddleware<AppEnv>(async (c, next) => {
  declareRateLimitPolicy(c);
  const sent = c.req.header(BOOKMARK_HEADER);
  const bookmark = sent !== undefined && BOOKMARK.test(sent) ? sent : undefined;
  const session = openSegmentSessions(c.env, bookmark);
  c.set("db", session);
  // Read when the answer is written: after the request's queries.
  declareOwnHeader(c, BOOKMARK_HEADER, () => session.latestBookmark);
  // Per API key, so that one noisy key cannot starve the others; counted in the colo, without a storage round trip.
  c.set("withinLimit", await isWithinLimit(c.env, "RATE_LIMITER", c.get("apiKey").hash, faultContext(c)));
  if (sent !== undefined && bookmark === undefined) throw refusedBookmark(sent);
  return next();
});

/** The HTTP door's refusal of a call past its key's limit: 429 with Retry-After. */
export const refuseOverLimit = createMiddleware<AppEnv>((c, next) => {
  if (!c.get("withinLimit")) throw rateLimited();
  return next();
});
