import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { declareOwnHeader } from "../http/answer-headers";
import { D1_DEADLINE_MS, retryTransient, withDeadline } from "../lib/faults";
import { createSessionDatabase, type Database, emptyD1Usage, type RequestDatabase } from "./client";

declare module "hono" {
  interface ContextVariableMap {
    /** The request's D1 session, opened on first query (cache hits never open one). */
    db: RequestDatabase;
  }
}

export const BOOKMARK_HEADER = "x-d1-bookmark";

// Each query, or run of queries, within D1_DEADLINE_MS: one that hangs is answered 503.
const timely = <T>(running: Promise<T>) => withDeadline(running, D1_DEADLINE_MS, "D1");

/**
 * A request's D1 session, opened on its first query only: an answer from the pet cache
 * needs no database. A class, so that a request that never queries pays for one object,
 * not for a closure for each way to query.
 */
class RequestSession implements RequestDatabase {
  readonly usage = emptyD1Usage();
  retries = 0;
  #opened: ReturnType<typeof createSessionDatabase> | undefined;

  constructor(
    private readonly d1: D1Database,
    private readonly bookmark: string | undefined,
  ) {}

  #db() {
    this.#opened ??= createSessionDatabase(this.d1, this.bookmark, this.usage);
    return this.#opened.db;
  }

  idempotent<T>(query: (db: Database) => Promise<T>) {
    return retryTransient(
      () => timely(query(this.#db())),
      () => this.retries++,
    );
  }

  once<T>(query: (db: Database) => Promise<T>) {
    return timely(query(this.#db()));
  }

  primary<T>(query: (db: Database) => Promise<T>) {
    return retryTransient(
      () => timely(query(createSessionDatabase(this.d1, "first-primary", this.usage).db)),
      () => this.retries++,
    );
  }

  /** The bookmark to send back: the session's latest, or, when no query ran, the one the client sent. */
  get latestBookmark() {
    return this.#opened ? this.#opened.session.getBookmark() : this.bookmark;
  }
}

/** A request's session, opened on its first query; from `bookmark` when the client sent one. */
export const openSession = (d1: D1Database, bookmark?: string): RequestDatabase => new RequestSession(d1, bookmark);

/**
 * Every response carries the session's bookmark (or, when no query ran, the one the client
 * sent), which the header's validation ahead of it has checked.
 */
export const withSession = createMiddleware<AppEnv>((c, next) => {
  const session = new RequestSession(c.env.DB, c.req.header(BOOKMARK_HEADER));
  c.set("db", session);
  // Read when the answer is written: after the request's queries.
  declareOwnHeader(c, BOOKMARK_HEADER, () => session.latestBookmark);
  return next();
});
