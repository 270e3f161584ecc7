import { expect, vi } from "vitest";

// A call that hangs (test/helpers/wrap-bindings.ts) meets the Worker's deadline on the
// timers' clock, which the test holds from the moment the call is made: no test waits out
// a deadline, and none fails for a machine too busy to keep one.

/**
 * Records the delay of each timer set once `hungCalls()` counts one, until `restore()`: the
 * first is the hung call's deadline, set as it is made. The held clock's own setTimeout is put
 * back as it was (not through a spy's restore, which left a stand-in that the real timers'
 * return did not replace).
 */
export const timersSetOnceHung = (hungCalls: () => number) => {
  const heldSetTimeout = globalThis.setTimeout;
  const delays: unknown[] = [];
  globalThis.setTimeout = ((handler: () => void, ms?: number) => {
    if (hungCalls() > 0) delays.push(ms);
    return heldSetTimeout(handler, ms);
  }) as typeof setTimeout;
  return {
    delays,
    restore: () => {
      globalThis.setTimeout = heldSetTimeout;
    },
  };
};

/**
 * Sends a request through bindings whose call hangs (`hungCalls` counts the calls made to
 * it), and returns its answer once `deadlineMs` has passed on the timers since the call was
 * made. The deadline set on the call is `deadlineMs` exactly, and one millisecond short of
 * it the request still waits.
 */
export const answerAtDeadline = async (
  send: () => Promise<Response>,
  hungCalls: () => number,
  deadlineMs: number,
): Promise<Response> => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const setSinceHung = timersSetOnceHung(hungCalls);
  let answered = false;
  const answer = send().finally(() => {
    answered = true;
  });
  try {
    // Real time for the real calls before the hung one (the key, a limiter), whose deadlines then pass.
    while (hungCalls() === 0) await scheduler.wait(1);
    // Checked before any wait, so that a longer deadline fails here rather than hang the test.
    expect(setSinceHung.delays[0], "the hung call's deadline").toBe(deadlineMs);
  } finally {
    setSinceHung.restore();
  }
  await vi.advanceTimersByTimeAsync(deadlineMs - 1);
  expect(answered, `answered before ${deadlineMs} ms`).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  // The rest of the request, and its work after the answer, on the real timers: a timer left
  // with the held clock would never fire, and the runtime would cancel the work as hung.
  vi.useRealTimers();
  return answer;
};
