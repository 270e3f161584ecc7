import { afterEach, describe, expect, it, vi } from "vitest";
import { retryTransient } from "../../../src/lib/faults";
import { d1Error } from "../../helpers/wrap-bindings";

// docs/architecture.md: a transient D1 fault is retried, up to 3 attempts in all, after a
// random wait of up to 100 then 200 ms (full jitter). The clock and the dice are the test's.

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A query that fails with D1's "Network connection lost." `failures` times, then answers. */
const flaky = (failures: number) => {
  const query = vi.fn(async () => {
    if (query.mock.calls.length <= failures) throw d1Error("Network connection lost.");
    return "answered";
  });
  return query;
};

describe("a transient D1 fault", () => {
  it("is tried again after at most 100 ms, then at most 200 ms, for 3 attempts in all", async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0.999_999);
    const query = flaky(2);
    const answered = retryTransient(query, () => {});
    // From the first attempt on (the timers count whole milliseconds, so each wait just under
    // its cap ends a millisecond early): the second by 100 ms, the third by 100 + 200.
    await vi.advanceTimersByTimeAsync(98);
    expect(query).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2);
    expect(query).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(196);
    expect(query).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(4);
    expect(query).toHaveBeenCalledTimes(3);
    await expect(answered).resolves.toBe("answered");
  });

  it("waits a random share of that cap, not all of it", async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0.25);
    const query = flaky(1);
    const answered = retryTransient(query, () => {});
    await vi.advanceTimersByTimeAsync(24);
    expect(query).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(query).toHaveBeenCalledTimes(2);
    await expect(answered).resolves.toBe("answered");
  });

  it("is given up after the third attempt", async () => {
    vi.useFakeTimers();
    const query = flaky(3);
    const answered = retryTransient(query, () => {});
    const failed = expect(answered).rejects.toThrow(/Network connection lost/);
    await vi.advanceTimersByTimeAsync(1000);
    await failed;
    expect(query).toHaveBeenCalledTimes(3);
  });
});
