// The hourly clean-ups (src/index.ts) delete in batches: D1 runs one query at a time per
// database, so one statement deleting every expired row would hold each request behind it
// for as long as it runs (seconds at hundreds of thousands of rows, and past D1's 30 s limit
// per query further on, when it would fail every hour and the rows would grow without
// bound). Between two batches, the requests that wait go first.
import { inArray, lt, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

/** D1's guidance for large deletes: about 1,000 rows a statement. */
export const CLEAN_UP_BATCH_ROWS = 1000;
/** A run starts no batch after this long; the next hourly run goes on from there. */
export const CLEAN_UP_BUDGET_MS = 60_000;
/**
 * A run makes at most this many queries in all, its reads of the segments included: the
 * platform allows a Worker's invocation 1,000, and the rest are for the log and a margin.
 */
export const CLEAN_UP_MAX_QUERIES = 900;

export type CleanUpOutcome = { deleted: number; statements: number; finished: boolean };

/** The queries a run may still make, shared by all its clean-ups. */
export type QueryBudget = { left: number };

/**
 * Runs `deleteBatch` (which deletes at most `limit` rows, and says how many it deleted)
 * until a batch deletes fewer than CLEAN_UP_BATCH_ROWS, or CLEAN_UP_BUDGET_MS have passed
 * on `clock` (handed over by tests, to see a run stop and the next go on).
 */
export const deleteInBatches = async (
  deleteBatch: (limit: number) => Promise<number>,
  clock: () => number = Date.now,
  budget: QueryBudget = { left: CLEAN_UP_MAX_QUERIES },
): Promise<CleanUpOutcome> => {
  const started = clock();
  const outcome = { deleted: 0, statements: 0, finished: false };
  while (budget.left > 0) {
    budget.left--;
    const deleted = await deleteBatch(CLEAN_UP_BATCH_ROWS);
    outcome.deleted += deleted;
    outcome.statements++;
    if (deleted < CLEAN_UP_BATCH_ROWS) return { ...outcome, finished: true };
    if (clock() - started >= CLEAN_UP_BUDGET_MS) return outcome;
  }
  return outcome;
};

/** The rows of `table` whose `column` is below `bound`, in batches, the lowest first (by the column's index). */
export const deleteBelow = (
  db: Database,
  table: SQLiteTable,
  column: SQLiteColumn,
  bound: number | string,
  clock?: () => number,
  budget?: QueryBudget,
) =>
  deleteInBatches(
    async (limit) => {
      const lowest = db.select({ rowid: sql`rowid` }).from(table).where(lt(column, bound)).orderBy(column).limit(limit);
      return (await db.delete(table).where(inArray(sql`rowid`, lowest))).meta.changes;
    },
    clock,
    budget,
  );
