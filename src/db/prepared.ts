import { createDatabase, type Database } from "./client";

// The queries a request runs most are prepared once per isolate: Drizzle builds a query's
// SQL anew each time it runs, a large share of a partial page's CPU when it did. A prepared
// query keeps its SQL and runs it on the request's own D1 session, which no isolate-wide
// object may hold: it is prepared on a client bound to no database (the unbound client),
// and each run hands it the request's.

type D1Client = Pick<D1Database, "prepare">;

/** The client a prepared query runs on: set only while `runPrepared` calls it. */
let requestClient: D1Client | undefined;

/** A statement of the unbound client: the SQL and its values, made on the request's client when run. */
class DeferredStatement {
  constructor(
    private readonly sql: string,
    private readonly values: unknown[] = [],
  ) {}
  bind(...values: unknown[]) {
    return new DeferredStatement(this.sql, values);
  }
  #statement() {
    if (!requestClient) throw new Error("a prepared query ran outside runPrepared");
    return requestClient.prepare(this.sql).bind(...this.values);
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

/** Drizzle over the unbound client: made on first use, as global scope only defines things. */
let unboundDb: Database | undefined;
/** Drizzle over the unbound client, which also writes SQL for a statement run elsewhere (`toSQL()`). */
export const unboundDatabase = () =>
  (unboundDb ??= createDatabase({ prepare: (sql: string) => new DeferredStatement(sql) } as unknown as D1Database));

/** A query prepared on its first use, on the unbound client. */
export const prepared = <Query>(prepare: (db: Database) => Query) => {
  let query: Query | undefined;
  return () => {
    query ??= prepare(unboundDatabase());
    return query;
  };
};

/**
 * Runs a prepared query (`run` calls it) on `db`, a request's database. Drizzle makes the
 * statement before its first await, so the request's client is set for that synchronous call
 * only: a statement made later, on another request's turn, finds none and throws.
 */
export const runPrepared = <T>(db: Database, run: () => Promise<T>): Promise<T> => {
  requestClient = db.$client;
  try {
    return run();
  } finally {
    requestClient = undefined;
  }
};
