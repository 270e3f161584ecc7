import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient, TimeoutError } from "../../../client/src/index";
import { retryAfterMs, sleep } from "../../../client/src/retry";

// The client's documented numbers (client/README.md), written here as literals and held from
// both sides: maxRetries 2, backoff steps of 0.5, 1, 2, 4 s up to a cap of 8 s with full
// jitter, and timeoutMs 10,000 over the whole answer, its body included.

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const client = (answer: () => Response, options: Record<string, unknown> = {}) => {
  const waits: number[] = [];
  let requests = 0;
  const petstore = createClient({
    baseUrl: "https://petstore.example/v1",
    apiKey: `ps_test_${"0".repeat(43)}`,
    fetch: async () => {
      requests++;
      return answer();
    },
    sleep: async (ms) => void waits.push(ms),
    ...options,
  });
  return { petstore, waits, requests: () => requests };
};
const unavailable = () =>
  new Response(JSON.stringify({ code: "unavailable", message: "m", status: 503 }), { status: 503 });
/** An answer whose headers arrive, and then its body stalls after a first byte. */
const stalled = () =>
  new Response(
    new ReadableStream({
      start: (controller) => controller.enqueue(new TextEncoder().encode("[")),
    }),
    { status: 200, headers: { "Content-Type": "application/json" } },
  );

describe("the client's limits", () => {
  it("retries twice by default: three attempts in all", async () => {
    const { petstore, requests } = client(unavailable);
    await expect(petstore.listPets()).rejects.toMatchObject({ status: 503 });
    expect(requests()).toBe(3);
  });

  it("backs off 0.5, 1, 2, 4 s, then 8 s at most, each wait anywhere from 0 to its step", async () => {
    const highest = client(unavailable, { maxRetries: 6 });
    vi.spyOn(Math, "random").mockReturnValue(0.9999999);
    await expect(highest.petstore.listPets()).rejects.toMatchObject({ status: 503 });
    expect(highest.waits.map(Math.round)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000]);
    const lowest = client(unavailable, { maxRetries: 2 });
    vi.spyOn(Math, "random").mockReturnValue(0);
    await expect(lowest.petstore.listPets()).rejects.toMatchObject({ status: 503 });
    expect(lowest.waits).toEqual([0, 0]);
  });

  it("gives an answer whose body stalls 10,000 ms by default, the body included, then a TimeoutError", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { petstore } = client(stalled, { maxRetries: 0 });
    let outcome: unknown;
    petstore.listPets().then(
      (value) => (outcome = value),
      (error) => (outcome = error),
    );
    await vi.advanceTimersByTimeAsync(9_999);
    expect(outcome).toBeUndefined();
    // One more millisecond: the timeout fires; a few turns let its rejection through, with no real time.
    await vi.advanceTimersByTimeAsync(1);
    for (let turn = 0; turn < 10 && outcome === undefined; turn++) await vi.advanceTimersByTimeAsync(0);
    expect(outcome).toBeInstanceOf(TimeoutError);
    expect((outcome as Error).message).toBe("No answer within 10000 ms");
  });
});

describe("the client's own waits", () => {
  it("sleep waits its time, with or without a signal, and no longer listens once done", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let slept = false;
    sleep(1_000).then(() => (slept = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(slept).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(slept).toBe(true);
    const signal = new AbortController().signal;
    const removed = vi.spyOn(signal, "removeEventListener");
    const done = sleep(10, signal);
    await vi.advanceTimersByTimeAsync(10);
    await expect(done).resolves.toBeUndefined();
    expect(removed).toHaveBeenCalledWith("abort", expect.any(Function));
  });

  it("sleep rejects with the signal's reason when it aborts, or at once when it has", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const controller = new AbortController();
    const reason = new Error("the caller gave up");
    const waiting = sleep(60_000, controller.signal);
    waiting.catch(() => {});
    await vi.advanceTimersByTimeAsync(1);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    await expect(sleep(60_000, controller.signal)).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    ["3", 3_000],
    [" 3\t", 3_000],
    ["x3", undefined],
    ["3x", undefined],
    ["3 x", undefined],
    [null, undefined],
  ])("reads Retry-After %j as %j ms", (value, expected) => {
    expect(retryAfterMs(value)).toBe(expected);
  });
});
