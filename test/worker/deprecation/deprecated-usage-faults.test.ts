import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { timersSetOnceHung } from "../../helpers/deadline";
import { callingGetPet, usageOf } from "../../helpers/get-pet-calls";
import { createApiKey, faultLogLines } from "../../helpers/index";
import { d1Error, failing } from "../../helpers/wrap-bindings";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/api.md: one batch under a 5 s deadline */
const FLUSH_DEADLINE_MS = 5_000;
/** docs/api.md: an isolate writes at most once per 10 s */
const FLUSH_INTERVAL_MS = 10_000;

// The calls of getPet through the faults of their write: a D1 error once and twice, a write
// that hangs, a waitUntil the platform cuts. How they are counted: ./deprecated-usage.test.ts.

const { startGetPet, getPet } = callingGetPet();

describe("calls of getPet", () => {
  it("are put back once when a write fails, and written by the next flush", async () => {
    const key = await createApiKey("flaky write");
    const flaky = failing(env, {
      binding: "DB",
      sql: /deprecated_calls/,
      error: d1Error("Network connection lost."),
      times: 1,
    });
    const lines = await faultLogLines(async () => {
      await getPet(key, { bindings: flaky.env });
    });
    expect(lines).toMatchObject([{ message: "recording deprecated calls failed", rowsPutBack: 1, rowsDropped: 0 }]);
    expect(await usageOf(key)).toEqual([]);
    await getPet(key, { bindings: flaky.env });
    expect((await usageOf(key))[0]?.calls).toBe(2);
    expect(flaky.calls).toHaveLength(2);
  });

  it("are dropped, and logged, when their write fails a second time: no fault repeats forever", async () => {
    const key = await createApiKey("broken write");
    const broken = failing(env, { binding: "DB", sql: /deprecated_calls/, error: d1Error("D1 DB is overloaded.") });
    const lines = await faultLogLines(async () => {
      await getPet(key, { bindings: broken.env });
      await getPet(key, { bindings: broken.env });
      await getPet(key, { bindings: broken.env });
    });
    expect(lines.map(({ rowsPutBack, rowsDropped }) => [rowsPutBack, rowsDropped])).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
    await getPet(key);
    expect((await usageOf(key))[0]?.calls).toBe(2);
  });

  it("are put back when their write hangs past its deadline, and written by the next flush", async () => {
    const key = await createApiKey("hung write");
    const hanging = failing(env, { binding: "DB", sql: /deprecated_calls/, error: "hangs", times: 1 });
    const lines = await faultLogLines(async () => {
      const { context } = await startGetPet(key, { bindings: hanging.env });
      // The write's deadline, checked before the clock passes it: a longer one fails, not hangs.
      const setSinceHung = timersSetOnceHung(() => hanging.calls.length);
      try {
        await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS);
        while (hanging.calls.length === 0) await scheduler.wait(1);
        expect(setSinceHung.delays[0], "the write's deadline").toBe(FLUSH_DEADLINE_MS);
      } finally {
        setSinceHung.restore();
      }
      await vi.advanceTimersByTimeAsync(FLUSH_DEADLINE_MS);
      await waitOnExecutionContext(context);
    });
    expect(lines).toMatchObject([{ message: "recording deprecated calls failed", rowsPutBack: 1 }]);
    expect(lines[0]?.cause).toMatch(/did not answer within/);
    await getPet(key, { bindings: hanging.env });
    expect((await usageOf(key))[0]?.calls).toBe(2);
  });

  it("are still written when a flush never settles (its waitUntil cut by the platform)", async () => {
    const key = await createApiKey("cut off");
    // A context that lets its work after the answer go, and the flush's timer cleared: as if the
    // platform had cut the waitUntil, the flush never runs, and nothing waits for it.
    const cut = createExecutionContext();
    cut.waitUntil = () => {};
    await startGetPet(key, { context: cut });
    vi.clearAllTimers();
    vi.setSystemTime(Date.now() + FLUSH_INTERVAL_MS + FLUSH_DEADLINE_MS);
    await getPet(key);
    expect((await usageOf(key))[0]?.calls).toBe(2);
  });
});
