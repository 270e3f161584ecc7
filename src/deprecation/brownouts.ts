import { MAX_TIME_MS, parseInstant } from "../lib/dates";

// Brownouts of a deprecated operation: ISO 8601 intervals, "<start>/<end>" or
// "<start>/<duration>", separated by spaces or commas, in the operation's var
// (GET_PET_BROWNOUTS), during which it already answers 410.

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

/** The brownout of `setting` (the var `name`) under way at `now`, if any. */
export const brownoutAt = (name: string, setting: string | undefined, now: number): Window | undefined =>
  brownoutWindows(name, setting).find(({ start, end }) => start <= now && now < end);
