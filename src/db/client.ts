import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";

/** Drizzle over D1, and the client it runs on (./prepared.ts runs prepared queries on it). */
export type Database = DrizzleD1Database & { $client: D1Database };

// snake_case columns in SQL, camelCase keys in TypeScript, with no column-name strings.
const options = { casing: "snake_case" } as const;

export const createDatabase = (d1: D1Database): Database => drizzle(d1, options);

/** What D1 reported for a request's queries (each result's metadata), for its log line. */
export type D1Usage = {
  /** Round trips to D1 that answered: a statement or a batch each. */
  roundTrips: number;
  rowsRead: number;
  rowsWritten: number;
  /** Time D1 spent running the SQL, as it reports it (not the network). */
  durationMs: number;
  /** Whether any query was answered by the primary rather than a read replica (absent if D1 does not say). */
  servedByPrimary?: boolean;
};

export const emptyD1Usage = (): D1Usage => ({ roundTrips: 0, rowsRead: 0, rowsWritten: 0, durationMs: 0 });

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

const add = (usage: D1Usage, meta: D1Meta) => {
  usage.rowsRead += meta.rows_read ?? 0;
  usage.rowsWritten += meta.rows_written ?? 0;
  usage.durationMs += meta.duration ?? 0;
  if (typeof meta.served_by_primary === "boolean") usage.servedByPrimary ||= meta.served_by_primary;
};

/**
 * A statement whose results are added to `usage`. D1's raw(), which Drizzle reads
 * selects with, drops the result's metadata, so raw() runs all() and takes each row's
 * values in column order: what Drizzle itself does with a batch's rows.
 */
class MeasuredStatement {
  constructor(
    readonly statement: D1PreparedStatement,
    private readonly usage: D1Usage,
  ) {}
  bind(...values: unknown[]) {
    return new MeasuredStatement(this.statement.bind(...values), this.usage);
  }
  async all() {
    const result = await this.statement.all();
    this.usage.roundTrips++;
    add(this.usage, result.meta);
    return result;
  }
  async run() {
    const result = await this.statement.run();
    this.usage.roundTrips++;
    add(this.usage, result.meta);
    return result;
  }
  async raw() {
    const { results } = await this.all();
    return results.map((row) => Object.values(row as Record<string, unknown>));
  }
}

/**
 * A D1 session (read replication): reads may go to the nearest replica, and a
 * session started from a client's bookmark sees at least everything that bookmark
 * saw, so a client that sends back the last bookmark it got reads its own writes.
 * Drizzle's D1 driver only calls prepare() and batch() (and on a statement bind(),
 * all(), run(), raw()), which the measured session below has.
 */
export const createSessionDatabase = (d1: D1Database, bookmark: string | undefined, usage: D1Usage) => {
  const session = d1.withSession(bookmark ?? "first-unconstrained");
  const measured = {
    prepare: (sql: string) => new MeasuredStatement(session.prepare(sql), usage),
    batch: async (statements: MeasuredStatement[]) => {
      const results = await session.batch(statements.map(({ statement }) => statement));
      usage.roundTrips++;
      for (const { meta } of results) add(usage, meta);
      return results;
    },
  };
  return { session, db: drizzle(measured as unknown as D1Database, options) };
};
