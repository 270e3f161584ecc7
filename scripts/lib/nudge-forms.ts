// How a nudge is written (./number-nudges.ts lists them): one number as its source states it,
// and the same text one step up and one step down.

/** One number as its source states it, and the same line one step up and one step down. */
export type Nudge = { file: string; from: string; up: string; down: string };

/** Numbers of one concern and the tests that pin them. */
export type NudgeGroup = { tests: string[]; nudges: Nudge[] };

/** `NAME = value` in `file`, nudged to `NAME = up` and `NAME = down`. */
export const constant = (file: string, name: string, value: string, up: string, down: string): Nudge => ({
  file,
  from: `${name} = ${value};`,
  up: `${name} = ${up};`,
  down: `${name} = ${down};`,
});

/** One of the key scripts' longest durations (scripts/lib/duration.ts), nudged alone. */
export const duration = (from: string, up: string, down: string): Nudge => ({
  file: "scripts/lib/duration.ts",
  from,
  up,
  down,
});

/** The restore check's time limit (scripts/lib/dump-check-process.ts): 10 s, and 1 s more per MiB begun. */
export const timeLimit = (from: string, up: string, down: string): Nudge => ({
  file: "scripts/lib/dump-check-process.ts",
  from,
  up,
  down,
});

/** One cache's share of the isolate's memory budget (src/lib/bounded-cache.ts). */
export const share = (name: string, value: string, up: string, down: string): Nudge => ({
  file: "src/lib/bounded-cache.ts",
  from: `${name}: ${value},`,
  up: `${name}: ${up},`,
  down: `${name}: ${down},`,
});
