import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { generateApiKey, hashApiKey } from "../../../src/keys/api-key";
import { callingGetPet, flushUsage, usageOf } from "../../helpers/get-pet-calls";
import { call, createApiKey } from "../../helpers/index";
import { countRoundTrips } from "../../helpers/wrap-bindings";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/api.md: an isolate writes at most once per 10 s */
const FLUSH_INTERVAL_MS = 10_000;

// Who still calls the deprecated getPet: each call counted per key and day, written after
// the answer, at most once per interval; through the faults of D1 and of waitUntil:
// ./deprecated-usage-faults.test.ts.

const { startGetPet, getPet } = callingGetPet();
const DAY_MS = 24 * 60 * 60 * 1000;

describe("calls of getPet", () => {
  it("are recorded per API key, with its label, the day, the count and the last call", async () => {
    // Mid-day UTC, so that the three calls fall on one day whenever the test runs.
    const noon = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS / 2;
    vi.setSystemTime(noon);
    const key = await createApiKey("team-legacy");
    const before = Date.now();
    for (let call = 0; call < 3; call++) expect((await getPet(key)).status).toBe(200);
    const [row, ...others] = await usageOf(key);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      key_label: "team-legacy",
      operation: "getPet",
      day: new Date(noon).toISOString().slice(0, 10),
      calls: 3,
    });
    expect(row?.last_call_at).toBeGreaterThanOrEqual(before);
  });

  it("count only calls that reach the operation: an id that is not one is refused at the door, and not counted", async () => {
    const key = await createApiKey("typo in the id");
    const context = createExecutionContext();
    expect((await call("/v1/pets/abc", { key, context })).status).toBe(400);
    await flushUsage(context);
    expect(await usageOf(key)).toEqual([]);
    expect((await getPet(key)).status).toBe(200);
    expect((await usageOf(key))[0]?.calls).toBe(1);
  });

  it("are written after the answer, at most once per interval: 20 calls at once make no round trip of theirs and one write", async () => {
    const key = await createApiKey("busy isolate");
    // The key's first use of the day is written too (src/keys/last-used.ts): behind it, on another operation.
    expect((await call("/v1/pets?limit=1", { key })).status).toBe(200);
    const counter = countRoundTrips(env);
    const started = await Promise.all(Array.from({ length: 20 }, () => startGetPet(key, { bindings: counter.env })));
    const whileAnswering = { ...counter.counts };
    await flushUsage(...started.map(({ context }) => context));
    expect(started.map(({ response }) => response.status)).toEqual(Array(20).fill(200));
    expect(whileAnswering.d1).toBe(0);
    expect(counter.counts.d1).toBe(1);
    expect((await usageOf(key))[0]?.calls).toBe(20);
  });

  it("are written at once, not an interval later, when a full batch of 64 rows is still waiting", async () => {
    const labelled = (index: number) => createApiKey(`full batch ${index}`);
    const addressOf = (index: number) => `2001:db8:64${index.toString(16).padStart(2, "0")}::1`;
    // Well past any earlier flush, so that this one is written at once: then the next interval starts now.
    vi.setSystemTime(Date.now() + 60 * 60_000);
    const first = await startGetPet(await labelled(0), { address: addressOf(0) });
    await vi.advanceTimersByTimeAsync(0);
    await waitOnExecutionContext(first.context);
    const writtenRows = async () =>
      (
        await env.DB.prepare(
          "select count(*) as rows from deprecated_calls where key_label like 'full batch %'",
        ).first<{
          rows: number;
        }>()
      )?.rows;
    // 130 keys within the interval: its flush, at its end, writes one batch, 64 rows, and leaves 66.
    const keys = await Promise.all(Array.from({ length: 130 }, (_, index) => labelled(index + 1)));
    const started = [];
    // Each from a /64 of its own: a key's first use counts against its address's allowance.
    for (const [index, key] of keys.entries()) started.push(await startGetPet(key, { address: addressOf(index + 1) }));
    await flushUsage(...started.map(({ context }) => context));
    expect(await writtenRows()).toBe(1 + 64);
    // The next call, at once, finds a full batch waiting: its flush waits for no interval
    // (startGetPet reads the wait as it is set, test/helpers/get-pet-calls.ts).
    const nextKey = await labelled(131);
    const next = await startGetPet(nextKey, { address: addressOf(131) });
    expect(next.flushWait, "the flush's wait").toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    await waitOnExecutionContext(next.context);
    expect(await writtenRows()).toBe(1 + 64 + 64);
  });

  it(`wait ${FLUSH_INTERVAL_MS / 1000} s from the last write before the next`, async () => {
    const key = await createApiKey("the interval");
    await getPet(key); // its write is the last one
    const next = await startGetPet(key);
    expect(next.flushWait, "the flush's wait").toBe(10_000);
    await flushUsage(next.context);
    expect((await usageOf(key))[0]?.calls).toBe(2);
  });

  it(`under steady traffic are written once per ${FLUSH_INTERVAL_MS / 1000} s, each write within one waitUntil of one interval and one write`, async () => {
    const key = await createApiKey("steady traffic");
    await getPet(key); // the isolate's first write is behind it
    const counter = countRoundTrips(env);
    const contexts: ExecutionContext[] = [];
    for (let second = 0; second < 30; second++) {
      contexts.push((await startGetPet(key, { bindings: counter.env })).context);
      await vi.advanceTimersByTimeAsync(1000);
    }
    await flushUsage(...contexts);
    expect(counter.counts.d1).toBeGreaterThanOrEqual(3);
    expect(counter.counts.d1).toBeLessThanOrEqual(4);
    expect((await usageOf(key))[0]?.calls).toBe(31);
  });

  it("of a key whose record has no label are written, and do not fail the other keys' rows of the batch", async () => {
    const labelled = await createApiKey("labelled");
    const unlabelled = generateApiKey("development");
    await env.API_KEYS.put(await hashApiKey(unlabelled), JSON.stringify({ createdAt: new Date().toISOString() }));
    const first = await startGetPet(labelled);
    const second = await startGetPet(unlabelled);
    await flushUsage(first.context, second.context);
    expect((await usageOf(labelled))[0]).toMatchObject({ key_label: "labelled", calls: 1 });
    expect((await usageOf(unlabelled))[0]).toMatchObject({ key_label: "(no label)", calls: 1 });
  });
});
