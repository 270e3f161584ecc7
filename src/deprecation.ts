import { lt, sql } from "drizzle-orm";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { createDatabase, type Database } from "./db/client";
import { deprecatedCalls } from "./db/schema";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { GET_PET_SUNSET } from "./response-headers";

// The life of the deprecated getPet, run by the service: it records who still calls
// it, answers 410 during the brownouts configured in GET_PET_BROWNOUTS, and from its
// Sunset instant on answers 410 for good, with no deploy on the day.

const SUNSET_DAY = "5 December 2030";
const SUCCESSOR = "use GET /v1/pets with the status filter instead";
export const REMOVED_MESSAGE = `GET /v1/pets/{petId} was removed on ${SUNSET_DAY}; ${SUCCESSOR}.`;
export const DEPRECATED_USAGE_RETENTION_DAYS = 400;

// ---------------------------------------------------------------------------
// Usage: counted in the isolate, written after the response.

type Counted = { keyLabel: string; calls: number; lastCallAt: number };
/** Calls not yet written, by `${apiKeyHash} ${operation} ${day}`. */
const unwritten = new Map<string, Counted>();
let writing = false;
// D1 binds at most 100 parameters per statement; a row takes six.
const ROWS_PER_STATEMENT = 16;

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

/**
 * Writes what was counted, in one batch, and again while calls keep arriving during a
 * write: a busy isolate writes once per round trip to D1, not once per call.
 */
const writeCounted = async (db: Database) => {
  try {
    // After the answer has left, and with every call of this turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 0));
    while (unwritten.size > 0) {
      const rows = [...unwritten].map(([id, counted]) => {
        const [apiKeyHash = "", operation = "", day = ""] = id.split(" ");
        return { apiKeyHash, operation, day, ...counted };
      });
      unwritten.clear();
      const statements = [];
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        statements.push(upsert(db, rows.slice(start, start + ROWS_PER_STATEMENT)));
      }
      const [first, ...rest] = statements;
      if (first) await db.batch([first, ...rest]);
    }
  } catch (error) {
    // A lost count is not worth a failed request; the log says so, without the rows.
    console.error(
      JSON.stringify({ level: "error", message: "recording deprecated calls failed", error: String(error) }),
    );
  } finally {
    writing = false;
  }
};

const countCall = (c: Context<AppEnv>, operation: string, now: number) => {
  const { hash, label } = c.var.apiKey;
  const id = `${hash} ${operation} ${new Date(now).toISOString().slice(0, 10)}`;
  const counted = unwritten.get(id);
  if (counted) {
    counted.calls++;
    counted.lastCallAt = now;
  } else {
    unwritten.set(id, { keyLabel: label, calls: 1, lastCallAt: now });
  }
  if (!writing) {
    writing = true;
    c.executionCtx.waitUntil(writeCounted(createDatabase(c.env.DB)));
  }
};

export const deleteOldDeprecatedCalls = (db: Database, now: number) => {
  const oldestKept = new Date(now - DEPRECATED_USAGE_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return db.delete(deprecatedCalls).where(lt(deprecatedCalls.day, oldestKept));
};

// ---------------------------------------------------------------------------
// Brownouts: ISO 8601 intervals, "<start>/<end>" or "<start>/<duration>", separated by
// spaces or commas, in the var GET_PET_BROWNOUTS.

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
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const instant = (text: string) => (INSTANT.test(text) ? Date.parse(text) : Number.NaN);

const parseWindow = (interval: string): Window | undefined => {
  const [startText = "", endText = "", ...extra] = interval.split("/");
  const start = instant(startText);
  const length = durationMs(endText);
  const end = length === undefined ? instant(endText) : start + length;
  return extra.length === 0 && Number.isFinite(start) && Number.isFinite(end) && end > start
    ? { start, end }
    : undefined;
};

const parsedSchedules = new Map<string, Window[]>();
/**
 * The windows of a GET_PET_BROWNOUTS value, parsed once per isolate. A malformed one is
 * logged once, clearly, and left out: a typo in the schedule must not fail requests.
 */
const brownoutWindows = (setting = ""): Window[] => {
  let windows = parsedSchedules.get(setting);
  if (!windows) {
    windows = [];
    for (const interval of setting.split(/[\s,]+/).filter(Boolean)) {
      const window = parseWindow(interval);
      if (window) windows.push(window);
      else {
        console.error(
          JSON.stringify({
            level: "error",
            message: `GET_PET_BROWNOUTS: '${interval}' is not an ISO 8601 interval such as 2030-06-02T14:00:00Z/PT1H; it is ignored.`,
          }),
        );
      }
    }
    parsedSchedules.set(setting, windows);
  }
  return windows;
};

/**
 * On getPet, after authentication: 410 from the Sunset instant on, and during a
 * brownout; every call before the sunset is counted for the usage report.
 */
export const deprecatedOperation = (operation: string) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const now = Date.now();
    if (now >= GET_PET_SUNSET.getTime()) {
      throw new ApiError("gone", REMOVED_MESSAGE);
    }
    countCall(c, operation, now);
    const brownout = brownoutWindows(c.env.GET_PET_BROWNOUTS).find(({ start, end }) => start <= now && now < end);
    if (brownout) {
      throw new ApiError(
        "gone",
        `GET /v1/pets/{petId} is switched off until ${new Date(brownout.end).toISOString()}, a reminder that it will be removed on ${SUNSET_DAY}; ${SUCCESSOR}.`,
      );
    }
    await next();
  });
