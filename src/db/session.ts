import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { retryTransient } from "../faults";
import { createSessionDatabase, type D1Usage, type Database, emptyD1Usage } from "./client";

export const BOOKMARK_HEADER = "x-d1-bookmark";

type Query<T> = (db: Database) => Promise<T>;

/** A request's access to D1: how each query may be repeated is said where it is run. */
export type RequestDatabase = {
  /** A read, or a write whose repeat changes nothing: retried on D1's transient errors. */
  idempotent<T>(query: Query<T>): Promise<T>;
  /** A write that must not be repeated: it may have committed before an error reached us. */
  once<T>(query: Query<T>): Promise<T>;
  /** A read on the primary, which has every committed write (a replica may lag), retried like `idempotent`. */
  primary<T>(query: Query<T>): Promise<T>;
  /** The retries so far, for the request's log line. */
  readonly retries: number;
  /** What D1 reported of the queries so far, for the request's log line. */
  readonly usage: D1Usage;
};

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
  c.set("db", {
    idempotent: (query) => retryTransient(() => query(session()), counted),
    once: (query) => query(session()),
    primary: (query) =>
      retryTransient(() => query(createSessionDatabase(c.env.DB, "first-primary", usage).db), counted),
    get retries() {
      return retries;
    },
    usage,
  });
  await next();
  const latest = opened ? opened.session.getBookmark() : bookmark;
  if (latest) c.res.headers.set(BOOKMARK_HEADER, latest);
});
