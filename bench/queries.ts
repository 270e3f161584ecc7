// The SQL that the API sends D1 for a target, taken from the API's own query code run on its
// own session client (src/db/client.ts) over a D1 binding that records what it is asked and
// answers nothing, so that the floor under the target (./floor.ts) makes the same binding
// calls with the same statements and values, by construction
// (test/worker/bench/floor-statements.test.ts sees the API send them).

import { insertPet, selectPage } from "../src/core/queries";
import { createSessionDatabase, type Database, emptyD1Usage } from "../src/db/client";
import { FLUSH_INTERVAL_MS } from "../src/deprecation/usage";
import { upsertStatement } from "../src/deprecation/usage-upsert";
import { utcDay } from "../src/lib/dates";
import { LIST_LIMIT } from "../src/schemas";

/** One D1 call: the statement, its values, and the method that ran it (all, raw, first or run), in a session opened `first-unconstrained`. */
export type Statement = { sql: string; params: unknown[]; method: "all" | "raw" | "first" | "run" };

const recordingClient = (statements: Statement[]) => {
  const statement = (sql: string, params: unknown[] = []) => {
    const ran = (method: Statement["method"], answer: unknown) => async () => {
      statements.push({ sql, params, method });
      return answer;
    };
    return {
      // Its SQL and values, for periodicWrites: a batch takes its statements unrun, so no run records them.
      sql,
      params,
      bind: (...values: unknown[]) => statement(sql, values),
      all: ran("all", { results: [], success: true, meta: {} }),
      raw: ran("raw", []),
      first: ran("first", null),
      run: ran("run", { results: [], success: true, meta: {} }),
    };
  };
  const session = { prepare: (sql: string) => statement(sql) };
  return { ...session, withSession: () => session } as unknown as D1Database;
};

/** The statements `query` sends; an error for want of an answer (an insert that returned no row) ends it. */
const statementsOf = async (query: (db: Database) => Promise<unknown>) => {
  const statements: Statement[] = [];
  await query(createSessionDatabase(recordingClient(statements), undefined, emptyD1Usage()).db).catch(() => undefined);
  return statements;
};

/** The bench's request bodies, as ./targets.ts sends them. */
export const BENCH_PET = { name: "Bench pet", categoryId: 1, status: "available" } as const;

/**
 * The statements of the targets that reach D1: the first page of `?status=pending` (one row
 * more than the page, to tell whether a next one exists: src/core/cache.ts), and a create
 * without an Idempotency-Key, over HTTP and through /mcp.
 */
export const targetStatements = async () => ({
  partialPage: await statementsOf((db) =>
    selectPage(db, { afterId: 0, limit: LIST_LIMIT.default + 1, status: "pending" }),
  ),
  create: await statementsOf((db) => insertPet(db, BENCH_PET)),
  // create_pet's operation is createPet's: the same insert.
  createPetTool: await statementsOf((db) => insertPet(db, BENCH_PET)),
});

/**
 * A write that a target's calls make after the answer, at most once per interval: one batch
 * of these statements, on the binding itself (not in a session), an interval after the first
 * call, or sooner when the last one was more than an interval ago; the calls made meanwhile
 * join it.
 */
export type PeriodicWrite = { statements: Omit<Statement, "method">[]; intervalMs: number };

/**
 * getPet's: its calls are counted in the isolate and written to D1 (src/deprecation/usage.ts),
 * with the API's own statement for a day's row of one key's calls, the bench's one key
 * standing in by a hash of a key's length.
 */
export const periodicWrites = (now: number): Record<string, PeriodicWrite> => {
  const row = {
    apiKeyHash: "0".repeat(64),
    operation: "getPet",
    day: utcDay(now),
    keyLabel: "bench",
    calls: 1,
    lastCallAt: now,
  };
  const { sql, params } = upsertStatement(recordingClient([]), [row]) as unknown as Omit<Statement, "method">;
  return { getPet: { statements: [{ sql, params }], intervalMs: FLUSH_INTERVAL_MS } };
};
