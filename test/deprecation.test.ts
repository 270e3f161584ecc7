import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { generateApiKey, hashApiKey } from "../src/api-keys";
import { createDatabase } from "../src/db/client";
import {
  DEPRECATED_USAGE_RETENTION_DAYS,
  deleteOldDeprecatedCalls,
  FLUSH_DEADLINE_MS,
  FLUSH_INTERVAL_MS,
} from "../src/deprecated-usage";
import { DEPRECATIONS } from "../src/deprecation";
import type { Pet } from "../src/schemas";
import { call, createApiKey, createPet, expectError, faultLogLines } from "./helpers";
import { countRoundTrips, d1Error, failing } from "./wrap-bindings";

const GET_PET_SUNSET = new Date(DEPRECATIONS.getPet.sunset);

// The deprecated getPet's life: who calls it, brownouts, and its end at the Sunset
// instant, with the clock under the test's control (the Worker runs in this isolate).

let pet: Pet;
beforeAll(async () => {
  pet = await createPet(await createApiKey("owner"), { name: "Old Rex", categoryId: 1 });
});
// The clock is the test's: Date to be set, and the timers that the usage flush waits on.
const useFakeClock = () => vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

/** getPet with GET_PET_BROWNOUTS set; the context, to wait for its deferred work. */
const startGetPet = async (key: string, { brownouts = "", bindings = env as Cloudflare.Env } = {}) => {
  const context = createExecutionContext();
  const response = await call(`/v1/pets/${pet.id}`, {
    key,
    bindings: { ...bindings, GET_PET_BROWNOUTS: brownouts },
    context,
  });
  return { response, context };
};

/** Lets the usage flushes scheduled so far run (the clock moves past the interval), and waits for their writes. */
const flushUsage = async (...contexts: ExecutionContext[]) => {
  await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS);
  await Promise.all(contexts.map((context) => waitOnExecutionContext(context)));
};

/** getPet, resolved once the usage it recorded is written. */
const getPet = async (key: string, options: { brownouts?: string; bindings?: Cloudflare.Env } = {}) => {
  const { response, context } = await startGetPet(key, options);
  await flushUsage(context);
  return response;
};

type UsageRow = { key_label: string; operation: string; day: string; calls: number; last_call_at: number };
const usageOf = async (key: string) =>
  (
    await env.DB.prepare("select * from deprecated_calls where api_key_hash = ?")
      .bind(await hashApiKey(key))
      .all<UsageRow>()
  ).results;

describe("calls of getPet", () => {
  it("are recorded per API key, with its label, the day, the count and the last call", async () => {
    const key = await createApiKey("team-legacy");
    const before = Date.now();
    for (let call = 0; call < 3; call++) expect((await getPet(key)).status).toBe(200);
    const [row, ...others] = await usageOf(key);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      key_label: "team-legacy",
      operation: "getPet",
      day: new Date().toISOString().slice(0, 10),
      calls: 3,
    });
    expect(row?.last_call_at).toBeGreaterThanOrEqual(before);
  });

  it("are written after the answer, at most once per interval: 20 calls at once make no round trip of theirs and one write", async () => {
    const key = await createApiKey("busy isolate");
    // The key's first use of the day is written too (src/key-last-used.ts): behind it, on another operation.
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
      await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS + FLUSH_DEADLINE_MS);
      await waitOnExecutionContext(context);
    });
    expect(lines).toMatchObject([{ message: "recording deprecated calls failed", rowsPutBack: 1 }]);
    expect(lines[0]?.cause).toMatch(/did not answer within/);
    await getPet(key, { bindings: hanging.env });
    expect((await usageOf(key))[0]?.calls).toBe(2);
  });

  it("are still written when a flush never settles (its waitUntil cut by the platform)", async () => {
    const key = await createApiKey("cut off");
    await startGetPet(key);
    vi.clearAllTimers(); // the scheduled flush never runs, as if the platform had cancelled it
    vi.setSystemTime(Date.now() + FLUSH_INTERVAL_MS + FLUSH_DEADLINE_MS);
    await getPet(key);
    expect((await usageOf(key))[0]?.calls).toBe(2);
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

describe("at the Sunset instant", () => {
  it("answers normally up to the millisecond before, and 410 from the instant on, still with Sunset and the successor", async () => {
    const key = await createApiKey("late caller");
    vi.setSystemTime(GET_PET_SUNSET.getTime() - 1);
    expect((await getPet(key)).status).toBe(200);
    vi.setSystemTime(GET_PET_SUNSET);
    const gone = await getPet(key);
    const error = await expectError(gone, 410, "gone");
    expect(error.message).toBe(
      "GET /v1/pets/{petId} was removed on 5 December 2030; use GET /v1/pets with the status filter instead.",
    );
    expect(gone.headers.get("Sunset")).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
    expect(gone.headers.get("Link")).toBe('</v1/pets>; rel="successor-version"');
    vi.setSystemTime(GET_PET_SUNSET.getTime() + 365 * 24 * 60 * 60 * 1000);
    await expectError(await getPet(key), 410, "gone");
  });

  it("records nothing more", async () => {
    const key = await createApiKey("after the end");
    vi.setSystemTime(GET_PET_SUNSET);
    await expectError(await getPet(key), 410, "gone");
    expect(await usageOf(key)).toEqual([]);
  });
});

describe("a brownout", () => {
  const SCHEDULE = "2029-06-02T14:00:00Z/PT1H, 2029-09-01T14:00:00Z/2029-09-01T18:00:00Z";

  it.each([
    ["inside the first window", "2029-06-02T14:30:00Z", 410],
    ["at its start", "2029-06-02T14:00:00Z", 410],
    ["at its end", "2029-06-02T15:00:00Z", 200],
    ["inside the second window", "2029-09-01T17:59:59Z", 410],
    ["between them", "2029-07-01T00:00:00Z", 200],
  ])("answers %s (%s) with %i", async (_, now, status) => {
    vi.setSystemTime(new Date(now));
    const response = await getPet(await createApiKey("brownout"), { brownouts: SCHEDULE });
    expect(response.status).toBe(status);
    if (status === 410) {
      const error = await expectError(response, 410, "gone");
      expect(error.message).toMatch(
        /^GET \/v1\/pets\/\{petId\} is switched off until 2029-0[69]-0[12]T1[58]:00:00\.000Z/,
      );
      expect(error.message).toContain("removed on 5 December 2030; use GET /v1/pets with the status filter");
    }
  });

  it("is counted as a call, since it shows who still depends on the operation", async () => {
    const key = await createApiKey("browned out");
    vi.setSystemTime(new Date("2029-06-02T14:30:00Z"));
    await expectError(await getPet(key, { brownouts: SCHEDULE }), 410, "gone");
    expect((await usageOf(key))[0]?.calls).toBe(1);
  });

  it("schedule with a malformed window logs it once, clearly, and keeps the valid ones", async () => {
    const schedule =
      "2029-06-02T14:00:00Z/PT1H tomorrow/PT1H 2029-13-01T00:00:00Z/PT1H 2026-11-31T00:00:00Z/PT1H 2029-06-02T14:00:00Z/P300000000D 2029-06-02T24:00:00Z/PT1H";
    vi.setSystemTime(new Date("2029-06-02T14:30:00Z"));
    const key = await createApiKey("typo");
    const lines = await faultLogLines(async () => {
      await expectError(await getPet(key, { brownouts: schedule }), 410, "gone");
      await expectError(await getPet(key, { brownouts: schedule }), 410, "gone");
    });
    expect(lines.map((line) => line.message)).toEqual([
      "GET_PET_BROWNOUTS: 'tomorrow/PT1H' is not an ISO 8601 interval such as 2030-06-02T14:00:00Z/PT1H; it is ignored.",
      "GET_PET_BROWNOUTS: '2029-13-01T00:00:00Z/PT1H' is not an ISO 8601 interval such as 2030-06-02T14:00:00Z/PT1H; it is ignored.",
      // A day that does not exist, an end past the last instant a date can hold, an hour 24.
      "GET_PET_BROWNOUTS: '2026-11-31T00:00:00Z/PT1H' is not an ISO 8601 interval such as 2030-06-02T14:00:00Z/PT1H; it is ignored.",
      "GET_PET_BROWNOUTS: '2029-06-02T14:00:00Z/P300000000D' is not an ISO 8601 interval such as 2030-06-02T14:00:00Z/PT1H; it is ignored.",
      "GET_PET_BROWNOUTS: '2029-06-02T24:00:00Z/PT1H' is not an ISO 8601 interval such as 2030-06-02T14:00:00Z/PT1H; it is ignored.",
    ]);
  });
});

describe("the hourly cron", () => {
  it(`deletes usage records older than ${DEPRECATED_USAGE_RETENTION_DAYS} days`, async () => {
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    for (const [hash, daysAgo] of [
      ["old", DEPRECATED_USAGE_RETENTION_DAYS + 1],
      ["kept", DEPRECATED_USAGE_RETENTION_DAYS - 1],
    ] as const) {
      await env.DB.prepare("insert into deprecated_calls values (?, 'x', 'getPet', ?, 1, 0)")
        .bind(hash, day(daysAgo))
        .run();
    }
    await deleteOldDeprecatedCalls(createDatabase(env.DB), Date.now());
    const { results } = await env.DB.prepare(
      "select api_key_hash from deprecated_calls where api_key_hash in ('old', 'kept')",
    ).all();
    expect(results).toEqual([{ api_key_hash: "kept" }]);
  });
});
