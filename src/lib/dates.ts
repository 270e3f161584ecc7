// Instants as ISO 8601 writes them, read strictly: brownout schedules and key expiries;
// and UTC days, under which key use and deprecated calls are recorded.

export const DAY_MS = 24 * 60 * 60 * 1000;
let lastDay = { day: Number.NaN, text: "" };
/** The UTC day of `now` (Unix milliseconds) as YYYY-MM-DD: formatted once a day, not on every request. */
export const utcDay = (now: number): string => {
  const day = Math.floor(now / DAY_MS);
  if (day !== lastDay.day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
};

// An instant with a date, a time and a zone, so that no window depends on where it is read.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
/** The largest time a JavaScript Date holds (ECMA-262, section 21.4.1.1); beyond it, no date can be written. */
export const MAX_TIME_MS = 8.64e15;
/**
 * The instant (Unix milliseconds) of an ISO 8601 date-time with a zone, if it is one that
 * exists, else NaN: Date.parse reads "2026-11-31" as 1 December.
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
