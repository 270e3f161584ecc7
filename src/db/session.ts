import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { createSessionDatabase } from "./client";

export const BOOKMARK_HEADER = "x-d1-bookmark";

/**
 * Opens the request's D1 session on first use only: an answer from the pet cache
 * needs no database. Every response carries the session's bookmark (or, when no
 * query ran, the one the client sent).
 */
export const withSession = createMiddleware<AppEnv>(async (c, next) => {
  const bookmark = c.req.header(BOOKMARK_HEADER);
  let opened: ReturnType<typeof createSessionDatabase> | undefined;
  c.set("db", () => {
    opened ??= createSessionDatabase(c.env.DB, bookmark);
    return opened.db;
  });
  await next();
  const latest = opened ? opened.session.getBookmark() : bookmark;
  if (latest) c.res.headers.set(BOOKMARK_HEADER, latest);
});
