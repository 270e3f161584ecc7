import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createDatabase } from "../../../src/db/client";
import { DEPRECATIONS } from "../../../src/deprecation/deprecated-operation";
import { deleteOldDeprecatedCalls } from "../../../src/deprecation/usage";
import { callingGetPet, usageOf } from "../../helpers/get-pet-calls";
import { createApiKey, expectError, faultLogLines } from "../../helpers/index";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/api.md: records older than 400 days are deleted */
const DEPRECATED_USAGE_RETENTION_DAYS = 400;

const GET_PET_SUNSET = new Date(DEPRECATIONS.getPet.sunset);

// The deprecated getPet's end at the Sunset instant, its brownouts and the clean-up of
// its usage records, with the clock under the test's control (the Worker runs in this
// isolate). Who calls it: test/worker/deprecation/deprecated-usage.test.ts.

const { getPet } = callingGetPet();

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
    expect(gone.headers.get("Link")).toBe('<../pets>; rel="successor-version"');
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
  it(`deletes usage records older than ${DEPRECATED_USAGE_RETENTION_DAYS} days, and keeps the day ${DEPRECATED_USAGE_RETENTION_DAYS} days ago`, async () => {
    // One reading of the clock, for the days written and the clean-up alike.
    const now = Date.now();
    const day = (daysAgo: number) => new Date(now - daysAgo * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    for (const [hash, daysAgo] of [
      ["old", DEPRECATED_USAGE_RETENTION_DAYS + 1],
      ["kept", DEPRECATED_USAGE_RETENTION_DAYS],
    ] as const) {
      await env.DB.prepare("insert into deprecated_calls values (?, 'x', 'getPet', ?, 1, 0)")
        .bind(hash, day(daysAgo))
        .run();
    }
    await deleteOldDeprecatedCalls(createDatabase(env.DB), now);
    const { results } = await env.DB.prepare(
      "select api_key_hash from deprecated_calls where api_key_hash in ('old', 'kept')",
    ).all();
    expect(results).toEqual([{ api_key_hash: "kept" }]);
  });
});
