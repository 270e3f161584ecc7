import { lt, sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { CACHE_SHARES, estimateBytes } from "./bounded-cache";
import { createDatabase, type Database } from "./db/client";
import { deprecatedCalls } from "./db/schema";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { messagesOf, withDeadline } from "./faults";

// Deprecated operations, and the life of each as the service runs it: headers on every
// answer, the count of who still calls it, 410 during the brownouts of its setting, and
// 410 for good from its Sunset instant on, with no deploy on the day. The OpenAPI
// description (src/routes/*.openapi.ts) reads its dates and messages from here too.

type Deprecation = {
  /** The operation as a client writes it, in messages. */
  operation: string;
  /** Where its headers go: its route, and any path that tools take for it. */
  paths: readonly string[];
  /** RFC 9745's Deprecation: since when (UTC). */
  deprecatedAt: number;
  /** RFC 8594's Sunset: from when it answers 410 for good (UTC). */
  sunset: number;
  /** The successor, for the Link header, and what a client should do instead. */
  successor: { path: string; advice: string };
  /** The var of wrangler.toml that schedules its brownouts. */
  brownouts: StringVar;
};

/** The names of wrangler.toml's string vars. */
type StringVar = {
  [Name in keyof CloudflareBindings]-?: CloudflareBindings[Name] extends string ? Name : never;
}[keyof CloudflareBindings];

/** Deprecating another operation: one entry here, and `deprecatedOperation("<its id>")` on its route. */
export const DEPRECATIONS = {
  getPet: {
    operation: "GET /v1/pets/{petId}",
    // "/v1/pets/" too: tools that read the document take it for getPet with an empty petId.
    paths: ["/v1/pets/:petId", "/v1/pets/"],
    deprecatedAt: Date.UTC(2026, 10, 21),
    sunset: Date.UTC(2030, 11, 5),
    successor: { path: "/v1/pets", advice: "use GET /v1/pets with the status filter instead" },
    brownouts: "GET_PET_BROWNOUTS",
  },
} as const satisfies Record<string, Deprecation>;

export type DeprecatedOperationId = keyof typeof DEPRECATIONS;

/** The day of the sunset as people write it: "5 December 2030". */
export const sunsetDay = ({ sunset }: Deprecation) =>
  new Date(sunset).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** The message of its 410 from the sunset on. */
export const removedMessage = (deprecation: Deprecation) =>
  `${deprecation.operation} was removed on ${sunsetDay(deprecation)}; ${deprecation.successor.advice}.`;

/** The headers on its every answer, errors included: RFC 9745 (as "@" + Unix seconds), RFC 8594, RFC 8288. */
export const deprecationHeaders = ({ deprecatedAt, sunset, successor }: Deprecation) => ({
  Deprecation: `@${deprecatedAt / 1000}`,
  Sunset: new Date(sunset).toUTCString(),
  Link: `<${successor.path}>; rel="successor-version"`,
});

/**
 * Puts each deprecated operation's headers on every answer of its paths: outside the
 * routes and the 405 handling, so that its errors carry them too.
 */
export const markDeprecatedOperations = (app: Hono<AppEnv>) => {
  for (const deprecation of Object.values(DEPRECATIONS)) {
    const headers = Object.entries(deprecationHeaders(deprecation));
    const marked = createMiddleware<AppEnv>(async (c, next) => {
      await next();
      for (const [name, value] of headers) c.res.headers.set(name, value);
    });
    for (const path of deprecation.paths) app.use(path, marked);
  }
};

export const DEPRECATED_USAGE_RETENTION_DAYS = 400;

// ---------------------------------------------------------------------------
// Usage: counted in the isolate, written after the response, at most once per
// FLUSH_INTERVAL_MS (sooner only when a batch is full), each flush one bounded batch
// under a deadline: no waitUntil lives longer than one wait and one write, well within
// the 30 s the platform gives it after the response.

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

const upsert = (db: Database, rows: (typeof deprecatedCalls.$inferInsert)[]) =>
  db
    .insert(deprecatedCalls)
    .values(rows)
    .onConflictDoUpdate({
      target: [deprecatedCalls.apiKeyHash, deprecatedCalls.operation, deprecatedCalls.day],
      set: {
        keyLabel: sql`excluded.key_label`,
        calls: sql`${deprecatedCalls.calls} + excluded.calls`,
        lastCallAt: sql`max(${deprecatedCalls.lastCallAt}, excluded.last_call_at)`,
      },
    });

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
const flush = async (db: Database, delayMs: number) => {
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
    const statements = [];
    for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
      statements.push(upsert(db, values.slice(start, start + ROWS_PER_STATEMENT)));
    }
    const [first, ...rest] = statements;
    if (!first) return;
    try {
      await withDeadline(db.batch([first, ...rest]), FLUSH_DEADLINE_MS, "D1");
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

const countCall = (c: Context<AppEnv>, operation: string, now: number) => {
  const { hash, label } = c.var.apiKey;
  // A record written by hand may lack a label: its row must not fail the batch.
  const keyLabel = typeof label === "string" ? label : "(no label)";
  add(`${hash} ${operation} ${new Date(now).toISOString().slice(0, 10)}`, { keyLabel, calls: 1, lastCallAt: now });
  const underWay = flushScheduledAt !== undefined && now - flushScheduledAt < FLUSH_INTERVAL_MS + FLUSH_DEADLINE_MS;
  if (underWay) return;
  flushScheduledAt = now;
  const sinceLastFlush = Math.max(0, now - lastFlushAt);
  const delayMs = unwritten.size >= ROWS_PER_FLUSH ? 0 : Math.max(0, FLUSH_INTERVAL_MS - sinceLastFlush);
  c.executionCtx.waitUntil(flush(createDatabase(c.env.DB), delayMs));
};

export const deleteOldDeprecatedCalls = (db: Database, now: number) => {
  const oldestKept = new Date(now - DEPRECATED_USAGE_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return db.delete(deprecatedCalls).where(lt(deprecatedCalls.day, oldestKept));
};

// ---------------------------------------------------------------------------
// Brownouts: ISO 8601 intervals, "<start>/<end>" or "<start>/<duration>", separated by
// spaces or commas, in the operation's var (GET_PET_BROWNOUTS).

type Window = { start: number; end: number };

const DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
const durationMs = (text: string): number | undefined => {
  const parts = DURATION.exec(text);
  if (!parts || text === "P" || text.endsWith("T")) return undefined;
  const [days, hours, minutes, seconds] = parts.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
  ];
  return (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000;
};
// An instant with a date, a time and a zone, so that no window depends on where it is read.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
/** The largest time a JavaScript Date holds (ECMA-262, section 21.4.1.1); beyond it, no date can be written. */
const MAX_TIME_MS = 8.64e15;
/**
 * The instant (Unix milliseconds) of an ISO 8601 date-time with a zone, if it is one that
 * exists, else NaN: Date.parse reads "2026-11-31" as 1 December. Also used by scripts/keys.ts.
 */
export const parseInstant = (text: string) => {
  const fields = INSTANT.exec(text);
  if (!fields) return Number.NaN;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = fields
    .slice(1)
    .map((field) => (field === undefined ? undefined : Number(field))) as number[];
  const date = new Date(Date.UTC(year as number, (month as number) - 1, day));
  const exists =
    date.getUTCMonth() === (month as number) - 1 &&
    date.getUTCDate() === day &&
    (hour as number) < 24 &&
    (minute as number) < 60 &&
    second < 60 &&
    offsetHours < 24 &&
    offsetMinutes < 60;
  return exists ? Date.parse(text) : Number.NaN;
};

const parseWindow = (interval: string): Window | undefined => {
  const [startText = "", endText = "", ...extra] = interval.split("/");
  const start = parseInstant(startText);
  const length = durationMs(endText);
  const end = length === undefined ? parseInstant(endText) : start + length;
  return extra.length === 0 && Number.isFinite(start) && Number.isFinite(end) && end > start && end <= MAX_TIME_MS
    ? { start, end }
    : undefined;
};

const parsedSchedules = new Map<string, Window[]>();
/**
 * The windows of a brownout setting, parsed once per isolate. A malformed one is
 * logged once, clearly, and left out: a typo in the schedule must not fail requests.
 */
const brownoutWindows = (name: string, setting = ""): Window[] => {
  let windows = parsedSchedules.get(`${name}=${setting}`);
  if (!windows) {
    windows = [];
    for (const interval of setting.split(/[\s,]+/).filter(Boolean)) {
      const window = parseWindow(interval);
      if (window) windows.push(window);
      else {
        console.error(
          JSON.stringify({
            level: "error",
            message: `${name}: '${interval}' is not an ISO 8601 interval such as 2030-06-02T14:00:00Z/PT1H; it is ignored.`,
          }),
        );
      }
    }
    parsedSchedules.set(`${name}=${setting}`, windows);
  }
  return windows;
};

/**
 * On a deprecated operation's route, after authentication: 410 from the sunset on, and
 * during a brownout; every call before the sunset is counted for the usage report.
 */
export const deprecatedOperation = (operationId: DeprecatedOperationId) => {
  const deprecation: Deprecation = DEPRECATIONS[operationId];
  return createMiddleware<AppEnv>(async (c, next) => {
    const now = Date.now();
    if (now >= deprecation.sunset) throw new ApiError("gone", removedMessage(deprecation));
    countCall(c, operationId, now);
    const brownout = brownoutWindows(deprecation.brownouts, c.env[deprecation.brownouts]).find(
      ({ start, end }) => start <= now && now < end,
    );
    if (brownout) {
      throw new ApiError(
        "gone",
        `${deprecation.operation} is switched off until ${new Date(brownout.end).toISOString()}, a reminder that it will be removed on ${sunsetDay(deprecation)}; ${deprecation.successor.advice}.`,
      );
    }
    await next();
  });
};
