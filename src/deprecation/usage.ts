import { deleteBelow, type QueryBudget } from "../db/clean-up";
import type { Database } from "../db/client";
import { deprecatedCalls } from "../db/schema";
import { CACHE_SHARES, estimateBytes } from "../lib/bounded-cache";
import { DAY_MS, utcDay } from "../lib/dates";
import { messagesOf, withDeadline } from "../lib/faults";
import { upsertStatement } from "./usage-upsert";

// Who still calls a deprecated operation: counted in the isolate, written after the response, at most once per
// FLUSH_INTERVAL_MS (sooner only when a batch is full), each flush one bounded batch
// under a deadline: no waitUntil lives longer than one wait and one write, well within
// the 30 s the platform gives it after the response.

export const DEPRECATED_USAGE_RETENTION_DAYS = 400;
export const FLUSH_INTERVAL_MS = 10_000;
export const FLUSH_DEADLINE_MS = 5_000;
// D1 binds at most 100 parameters per statement; a row takes six. Four statements a batch.
const ROWS_PER_STATEMENT = 16;
export const ROWS_PER_FLUSH = 4 * ROWS_PER_STATEMENT;

type Counted = { keyLabel: string; calls: number; lastCallAt: number; bytes: number; putBack?: true };
/** Calls not yet written, by `${apiKeyHash} ${operation} ${day}`, within their share of the cache budget. */
const unwritten = new Map<string, Counted>();
let unwrittenBytes = 0;
/** The estimated bytes of the calls not yet written: their share of the cache budget, CACHE_SHARES.usageCounts. */
export const unwrittenUsageBytes = () => unwrittenBytes;
let droppedCalls = 0;
/** When the flush under way was scheduled; a flush whose waitUntil was cut never clears it, so it is trusted only so long. */
let flushScheduledAt: number | undefined;
let lastFlushAt = Number.NEGATIVE_INFINITY;

const logUsage = (message: string, details: Record<string, unknown> = {}) =>
  console.error(JSON.stringify({ level: "error", message, ...details }));

const add = (id: string, counted: Omit<Counted, "bytes">) => {
  const existing = unwritten.get(id);
  if (existing) {
    existing.calls += counted.calls;
    existing.lastCallAt = Math.max(existing.lastCallAt, counted.lastCallAt);
    if (counted.putBack) existing.putBack = true;
    return;
  }
  const bytes = estimateBytes(id) + estimateBytes(counted) + 64;
  if (unwrittenBytes + bytes > CACHE_SHARES.usageCounts) {
    droppedCalls += counted.calls;
    return;
  }
  unwritten.set(id, { ...counted, bytes });
  unwrittenBytes += bytes;
};

/** Takes up to ROWS_PER_FLUSH rows out of `unwritten`. */
const takeRows = () =>
  [...unwritten].slice(0, ROWS_PER_FLUSH).map(([id, counted]) => {
    unwritten.delete(id);
    unwrittenBytes -= counted.bytes;
    return { id, counted };
  });

/** One flush: waits for the interval, then writes one batch; a failed batch's counts go back once. */
const flush = async (d1: D1Database, delayMs: number) => {
  try {
    // Never before the answer has left, with every call of this turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    lastFlushAt = Date.now();
    const rows = takeRows();
    const values = rows.map(({ id, counted }) => {
      const [apiKeyHash = "", operation = "", day = ""] = id.split(" ");
      return {
        apiKeyHash,
        operation,
        day,
        keyLabel: counted.keyLabel,
        calls: counted.calls,
        lastCallAt: counted.lastCallAt,
      };
    });
    if (values.length === 0) return;
    try {
      const statements = [];
      for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
        statements.push(upsertStatement(d1, values.slice(start, start + ROWS_PER_STATEMENT)));
      }
      await withDeadline(d1.batch(statements), FLUSH_DEADLINE_MS, "D1");
    } catch (error) {
      // Put back once: a batch that fails twice is dropped, so that no fault repeats forever.
      // A batch that timed out may still commit: its calls may then be counted twice.
      const again = rows.filter(({ counted }) => !counted.putBack);
      for (const { id, counted } of again) add(id, { ...counted, putBack: true });
      logUsage("recording deprecated calls failed", {
        cause: messagesOf(error).at(-1),
        rowsPutBack: again.length,
        rowsDropped: rows.length - again.length,
      });
    }
    if (droppedCalls > 0) {
      logUsage("deprecated calls not recorded: the isolate's share of memory for them was full", { droppedCalls });
      droppedCalls = 0;
    }
  } finally {
    flushScheduledAt = undefined;
  }
};

/** A call to count: its caller's key, the clock, the database, and the work after the answer. */
export type CountedCall = {
  caller: { hash: string; label: string };
  now: number;
  env: { DB: D1Database };
  waitUntil: (work: Promise<unknown>) => void;
};

/** Counts one call of `operation` by its caller's key; schedules its write after the response. */
export const countDeprecatedCall = ({ caller, now, env, waitUntil }: CountedCall, operation: string) => {
  const { hash, label } = caller;
  // A record written by hand may lack a label: its row must not fail the batch.
  const keyLabel = typeof label === "string" ? label : "(no label)";
  add(`${hash} ${operation} ${utcDay(now)}`, { keyLabel, calls: 1, lastCallAt: now });
  const underWay = flushScheduledAt !== undefined && now - flushScheduledAt < FLUSH_INTERVAL_MS + FLUSH_DEADLINE_MS;
  if (underWay) return;
  flushScheduledAt = now;
  const sinceLastFlush = Math.max(0, now - lastFlushAt);
  const delayMs = unwritten.size >= ROWS_PER_FLUSH ? 0 : Math.max(0, FLUSH_INTERVAL_MS - sinceLastFlush);
  waitUntil(flush(env.DB, delayMs));
};

/** The rows of days before the retention, in batches (src/db/clean-up.ts), oldest first. */
export const deleteOldDeprecatedCalls = (db: Database, now: number, clock?: () => number, budget?: QueryBudget) =>
  deleteBelow(
    db,
    deprecatedCalls,
    deprecatedCalls.day,
    utcDay(now - DEPRECATED_USAGE_RETENTION_DAYS * DAY_MS),
    clock,
    budget,
  );
