import { createDatabase, type Database } from "./client";

// The queries a request runs most are prepared once per isolate: Drizzle builds a query's
// SQL anew each time it runs, which V8's profiler put at about a fifth of the Worker's
// time for a partial page (2026-11-25). A prepared query keeps its SQL and runs it on the
// request's own D1 session, which no isolate-wide object may hold: it is prepared on a
// client that stands for no database, and each run lends it the request's.

type D1Client = Pick<D1Database, "prepare">;

/** The client a prepared query runs on: set only while `onSession` calls it. */
let lent: D1Client | undefined;

/** A statement of the stand-in client: the SQL and its values, made on the lent client when run. */
class LentStatement {
  constructor(
    private readonly sql: string,
    private readonly values: unknown[] = [],
  ) {}
  bind(...values: unknown[]) {
    return new LentStatement(this.sql, values);
  }
  #statement() {
    if (!lent) throw new Error("a prepared query ran outside onSession");
    return lent.prepare(this.sql).bind(...this.values);
  }
  all() {
    return this.#statement().all();
  }
  raw() {
    return this.#statement().raw();
  }
  run() {
    return this.#statement().run();
  }
}

/** Drizzle over the stand-in client: made on first use, as global scope only defines things. */
let standIn: Database | undefined;
/** Drizzle over the stand-in client, which also writes SQL for a statement run elsewhere (`toSQL()`). */
export const standInDatabase = () =>
  (standIn ??= createDatabase({ prepare: (sql: string) => new LentStatement(sql) } as unknown as D1Database));

/** A query prepared on its first use, on the stand-in client. */
export const prepared = <Query>(prepare: (db: Database) => Query) => {
  let query: Query | undefined;
  return () => {
    query ??= prepare(standInDatabase());
    return query;
  };
};

/**
 * Runs a prepared query (`run` calls it) on `db`, a request's database. Drizzle makes the
 * statement before its first await, so the client is lent for that synchronous call
 * only: a statement made later, on another request's turn, finds none and throws.
 */
export const onSession = <T>(db: Database, run: () => Promise<T>): Promise<T> => {
  lent = db.$client;
  try {
    return run();
  } finally {
    lent = undefined;
  }
};
