import { waitForGlobalWaitUntil } from "cloudflare:test-internal";
import { afterAll, vi } from "vitest";

// Runs with each test file of the worker project (vitest.config.ts). The files share a runtime
// (isolate: false), and the Worker's work after an answer (waitUntil) outlives the test that
// set it off: a usage flush waits out its interval, a write its deadline. Left running, it went
// on into the next file: its timers set on that file's held clock and fired from that file's
// context, which workerd refuses (a stress run failed once on "Cannot perform I/O on behalf of
// a different Durable Object", after deprecation.test.ts had moved its held clock), and its rows
// written after that file's fresh start. So a file ends only once the work it set off has
// settled, as each request's does on the platform.
//
// The pool's own list of waitUntil promises is the one that holds every context's, the main
// Worker's (exports.default) as well as createExecutionContext()'s. Like the platform, the
// pool gives up on work still pending 30 s on, and warns: a test has left work that never
// settles, such as a flush waiting on a held clock that it then let go.
//
// Most of that wait would be the usage flush's, up to 10 s of wall clock for each file that
// calls getPet. So the Worker's plain waits (a timer whose handler is a promise's own resolve:
// the flush's interval, a retry's backoff) are cut short at a file's end: that changes when the
// work goes on, never what it does. Deadlines, whose handlers reject, keep their time. A wait
// is woken from its own context, on a step of the timers it set, since a promise settled from
// another context is what workerd refuses.

/** How often a plain wait looks whether the file has ended: a file's end waits about this long for it. */
const STEP_MS = 50;
const CUT_SHORT = Symbol.for("petstore.test.waitsCutShort");

type WaitsCutShort = { now: boolean };

export const isPlainWait = (handler: unknown): handler is (...args: unknown[]) => void =>
  typeof handler === "function" && Function.prototype.toString.call(handler) === "function () { [native code] }";

/** Wraps setTimeout, once for the runtime: a plain wait goes in steps, and ends at a step once `now` is set. */
const wrapTimers = (): WaitsCutShort => {
  const cutShort = { now: false };
  const setTimer = globalThis.setTimeout;
  const clearTimer = globalThis.clearTimeout;
  /** The timer of each plain wait's current step, by the id its setTimeout returned. */
  const steps = new Map<number, number>();
  globalThis.setTimeout = ((handler: unknown, ms?: number, ...args: unknown[]) => {
    if (!isPlainWait(handler)) return setTimer(handler as (...passed: unknown[]) => void, ms, ...args);
    // The steps' own delays count the wait down, with no reading of a clock that a test may hold.
    let left = Math.max(0, ms || 0);
    const nextStep = () => {
      const delay = Math.min(STEP_MS, left);
      left -= delay;
      return setTimer(step, delay);
    };
    const step = () => {
      if (cutShort.now || left <= 0) {
        steps.delete(id);
        handler(...args);
      } else steps.set(id, nextStep());
    };
    const id = nextStep();
    steps.set(id, id);
    return id;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((id: number | null) => {
    clearTimer(id === null ? id : (steps.get(id) ?? id));
    if (id !== null) steps.delete(id);
  }) as typeof clearTimeout;
  return cutShort;
};

const holder = globalThis as { [CUT_SHORT]?: WaitsCutShort };
holder[CUT_SHORT] ??= wrapTimers();
const waits = holder[CUT_SHORT];

/** Waits for the work after every answer so far, its plain waits cut short: what each file's end does. */
export const settleDeferredWork = async () => {
  // The pool's 30 s wait runs on the timers, which a file's held clock must not stop.
  vi.useRealTimers();
  waits.now = true;
  try {
    await waitForGlobalWaitUntil();
  } finally {
    waits.now = false;
  }
};

afterAll(settleDeferredWork);
