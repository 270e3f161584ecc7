import { D1_DEADLINE_MS, retryTransient, withDeadline } from "../lib/faults";
import { createSessionDatabase, type D1Usage, type Database, emptyD1Usage, type RequestDatabase } from "./client";

// Each query, or run of queries, within D1_DEADLINE_MS: one that hangs is answered 503.
const timely = <T>(running: Promise<T>) => withDeadline(running, D1_DEADLINE_MS, "D1");

/** What a request's sessions report, together when it opens one on each of several databases. */
type SessionTally = { readonly usage: D1Usage; retries: number };

export const emptyTally = (): SessionTally => ({ usage: emptyD1Usage(), retries: 0 });

/**
 * A request's D1 session on one database, opened on its first query only: an answer from the
 * pet cache needs no database. A class, so that a request that never queries pays for one
 * object, not for a closure for each way to query.
 */
export class RequestSession implements RequestDatabase {
  #opened: ReturnType<typeof createSessionDatabase> | undefined;

  constructor(
    private readonly d1: D1Database,
    private readonly bookmark: string | undefined,
    private readonly tally: SessionTally = emptyTally(),
  ) {}

  get usage() {
    return this.tally.usage;
  }

  get retries() {
    return this.tally.retries;
  }

  #db() {
    this.#opened ??= createSessionDatabase(this.d1, this.bookmark, this.usage);
    return this.#opened.db;
  }

  idempotent<T>(query: (db: Database) => Promise<T>) {
    return retryTransient(
      () => timely(query(this.#db())),
      () => this.tally.retries++,
    );
  }

  once<T>(query: (db: Database) => Promise<T>) {
    return timely(query(this.#db()));
  }

  primary<T>(query: (db: Database) => Promise<T>) {
    return retryTransient(
      () => timely(query(createSessionDatabase(this.d1, "first-primary", this.usage).db)),
      () => this.tally.retries++,
    );
  }

  /** The bookmark to send back: the session's latest, or, when no query ran, the one the client sent. */
  get latestBookmark() {
    return this.#opened ? this.#opened.session.getBookmark() : this.bookmark;
  }
}

/** A request's session, opened on its first query; from `bookmark` when the client sent one. */
export const openSession = (d1: D1Database, bookmark?: string): RequestSession => new RequestSession(d1, bookmark);
