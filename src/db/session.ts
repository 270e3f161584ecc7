import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { D1_DEADLINE_MS, retryTransient, withDeadline } from "../lib/faults";
import { createSessionDatabase, emptyD1Usage, type RequestDatabase } from "./client";

declare module "hono" {
  interface ContextVariableMap {
    /** The request's D1 session, opened on first query (cache hits never open one). */
    db: RequestDatabase;
  }
}

export const BOOKMARK_HEADER = "x-d1-bookmark";

/**
 * Opens the request's D1 session on first use only: an answer from the pet cache
 * needs no database. Every response carries the session's bookmark (or, when no
 * query ran, the one the client sent).
 */
export const withSession = createMiddleware<AppEnv>(async (c, next) => {
  const bookmark = c.req.header(BOOKMARK_HEADER);
  const usage = emptyD1Usage();
  let opened: ReturnType<typeof createSessionDatabase> | undefined;
  const session = () => {
    opened ??= createSessionDatabase(c.env.DB, bookmark, usage);
    return opened.db;
  };
  let retries = 0;
  const counted = () => retries++;
  // Each query, or run of queries, within D1_DEADLINE_MS: one that hangs is answered 503.
  const timely = <T>(running: Promise<T>) => withDeadline(running, D1_DEADLINE_MS, "D1");
  c.set("db", {
    idempotent: (query) => retryTransient(() => timely(query(session())), counted),
    once: (query) => timely(query(session())),
    primary: (query) =>
      retryTransient(() => timely(query(createSessionDatabase(c.env.DB, "first-primary", usage).db)), counted),
    get retries() {
      return retries;
    },
    usage,
  });
  await next();
  const latest = opened ? opened.session.getBookmark() : bookmark;
  if (latest) c.res.headers.set(BOOKMARK_HEADER, latest);
});
