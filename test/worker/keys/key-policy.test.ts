import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateApiKey, hashApiKey } from "../../../src/keys/api-key";
import { call, createApiKey, expectError, faultLogLines } from "../../helpers/index";
import { countRoundTrips, d1Error, failing, type StorageCall, wrapBindings } from "../../helpers/wrap-bindings";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/keys.md: a change to a key reaches every isolate within 60 s */
const KNOWN_KEY_TTL_MS = 60_000;

// How long a key may work (its record's expiry), a token refused offline by its checksum,
// keys issued before checksums, and the day a key was last used. Its scopes: ./scopes.test.ts.

afterEach(() => {
  vi.useRealTimers();
});

const DAY_MS = 24 * 60 * 60 * 1000;

describe("a key's record", () => {
  it("is read from KV with cacheTtl 60: KV's edge cache adds at most 60 s to an isolate's (docs/keys.md)", async () => {
    const reads: unknown[] = [];
    // The real namespace, its reads' options written down on the way.
    const API_KEYS = {
      ...env.API_KEYS,
      get: (name: string, options: unknown) => {
        reads.push(options);
        return env.API_KEYS.get(name, options as KVNamespaceGetOptions<"json">);
      },
    } as KVNamespace;
    const key = await createApiKey("edge cached");
    expect((await call("/v1/pets", { key, bindings: { ...env, API_KEYS } })).status).toBe(200);
    expect(reads).toEqual([{ type: "json", cacheTtl: 60 }]);
  });
});

describe("a key's expiry", () => {
  it("refuses the key from its instant on, saying it expired, also while this isolate holds its record", async () => {
    // The clock held from the start: however long the first call takes, it comes before the expiry.
    vi.useFakeTimers({ toFake: ["Date"] });
    const expiresAt = new Date(Date.now() + KNOWN_KEY_TTL_MS / 2).toISOString();
    const key = await createApiKey("expiring", { expiresAt });
    const counted = countRoundTrips(env);
    expect((await call("/v1/pets", { key, bindings: counted.env })).status).toBe(200);
    vi.setSystemTime(Date.parse(expiresAt) - 1);
    expect((await call("/v1/pets", { key, bindings: counted.env })).status).toBe(200);
    vi.setSystemTime(Date.parse(expiresAt));
    const expired = await expectError(await call("/v1/pets", { key, bindings: counted.env }), 401, "unauthorized");
    expect(expired.message).toBe(`The API key expired at ${expiresAt}.`);
    // One KV read, the first: the record was cached, and the cache did not extend the key's life.
    expect(counted.counts.kv).toBe(1);
  });

  it("is not extended while KV fails, though a key verified lately is served from the cache then", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const expiresAt = new Date(Date.now() + KNOWN_KEY_TTL_MS * 2).toISOString();
    const key = await createApiKey("expiring during an outage", { expiresAt });
    expect((await call("/v1/pets", { key })).status).toBe(200);
    const kvDown = failing(env, { binding: "API_KEYS", error: new Error("KV GET failed: 503 Service Unavailable") });
    vi.setSystemTime(Date.parse(expiresAt) - 1);
    await faultLogLines(async () => {
      expect((await call("/v1/pets", { key, bindings: kvDown.env })).status).toBe(200);
      vi.setSystemTime(Date.parse(expiresAt));
      await expectError(await call("/v1/pets", { key, bindings: kvDown.env }), 401, "unauthorized");
    });
    expect(kvDown.calls.length).toBeGreaterThan(0);
  });
});

describe("a token whose checksum does not match", () => {
  it("is refused 401 with no KV read and no limiter call, however often it is sent", async () => {
    const calls: StorageCall[] = [];
    const watched = wrapBindings(env, (storageCall) => {
      calls.push(storageCall);
      return undefined;
    });
    const key = generateApiKey("development");
    const forged = `${key.slice(0, -1)}${key.at(-1) === "0" ? "1" : "0"}`;
    // More than AUTH_FAILURE_LIMITER's 60 a minute: not counted, so never a 429.
    for (let attempt = 0; attempt < 100; attempt++) {
      const refused = await expectError(
        await call("/v1/pets", { key: forged, bindings: watched }),
        401,
        "unauthorized",
      );
      expect(refused.message).toBe("The API key is not valid.");
    }
    expect(calls).toEqual([]);
  });
});

describe("a key issued before keys had a checksum", () => {
  it("keeps working, with its scopes and expiry read from its record like any other", async () => {
    const legacy = generateApiKey("development").slice(0, -6);
    await env.API_KEYS.put(
      await hashApiKey(legacy),
      JSON.stringify({ label: "legacy", createdAt: "2026-01-01T00:00:00.000Z", scopes: ["read"] }),
    );
    expect((await call("/v1/pets", { key: legacy })).status).toBe(200);
    const pet = { name: "Legacy Rex", categoryId: 1 };
    await expectError(await call("/v1/pets", { method: "POST", key: legacy, json: pet }), 403, "forbidden");
  });
});

describe("a key's last use", () => {
  const lastUsedDay = async (key: string) =>
    (
      await env.DB.prepare("select day from api_key_last_used where api_key_hash = ?")
        .bind(await hashApiKey(key))
        .first<{ day: string }>()
    )?.day;
  const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
  const isLastUseWrite = (storageCall: StorageCall) => /api_key_last_used/.test(storageCall.sql ?? "");

  it("is written after the answer once per isolate and UTC day, whatever the traffic", async () => {
    // Mid-day UTC, so that the first five requests fall in one day and the next three in the next.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS / 2);
    const key = await createApiKey("last used");
    const writes: StorageCall[] = [];
    const watched = wrapBindings(env, (storageCall) => {
      if (isLastUseWrite(storageCall)) writes.push(storageCall);
      return undefined;
    });
    for (let request = 0; request < 5; request++) {
      expect((await call("/v1/pets?limit=1", { key, bindings: watched, settle: true })).status).toBe(200);
    }
    expect(writes).toHaveLength(1);
    expect(await lastUsedDay(key)).toBe(dayOf(Date.now()));
    vi.setSystemTime(Date.now() + DAY_MS);
    for (let request = 0; request < 3; request++) {
      expect((await call("/v1/pets?limit=1", { key, bindings: watched, settle: true })).status).toBe(200);
    }
    expect(writes).toHaveLength(2);
    expect(await lastUsedDay(key)).toBe(dayOf(Date.now()));
  });

  it("that cannot be written does not touch the answer: logged, and tried again only after a pause", async () => {
    const key = await createApiKey("last use lost");
    const down = failing(env, { binding: "DB", sql: /api_key_last_used/, error: d1Error("Network connection lost.") });
    // The clock held from the failure on, so that the pause is seen to end at 60 s exactly.
    vi.useFakeTimers({ toFake: ["Date"] });
    const failedAt = Date.now();
    const lines = await faultLogLines(async () => {
      for (let request = 0; request < 3; request++) {
        expect((await call("/v1/pets?limit=1", { key, bindings: down.env, settle: true })).status).toBe(200);
      }
    });
    expect(down.calls).toHaveLength(1);
    expect(lines).toMatchObject([{ dependency: "D1", outcome: expect.stringMatching(/not recorded/) }]);
    vi.setSystemTime(failedAt + 59_999);
    expect((await call("/v1/pets?limit=1", { key, settle: true })).status).toBe(200);
    expect(await lastUsedDay(key)).toBeUndefined();
    vi.setSystemTime(failedAt + 60_000);
    expect((await call("/v1/pets?limit=1", { key, settle: true })).status).toBe(200);
    expect(await lastUsedDay(key)).toBe(dayOf(Date.now()));
  });

  it("whose write hangs is given up at its deadline, 5 s, without touching the answer", async () => {
    const key = await createApiKey("last use hangs");
    const hung = failing(env, { binding: "DB", sql: /api_key_last_used/, error: "hangs" });
    // Past the minute's pause that the failure above started (an isolate's state, shared by its tests).
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    vi.setSystemTime(Date.now() + 2 * 60_000);
    const lines: unknown[] = [];
    const capture = (line: unknown) => lines.push(JSON.parse(String(line)));
    const spies = [
      vi.spyOn(console, "warn").mockImplementation(capture),
      vi.spyOn(console, "error").mockImplementation(capture),
    ];
    try {
      const answered = call("/v1/pets?limit=1", { key, bindings: hung.env, settle: true });
      // Real time for the real calls before the hung write (the key, the limiter, the page).
      while (hung.calls.length === 0) await scheduler.wait(1);
      // The fault line is read at each side of the deadline before the answer is awaited, so
      // that another deadline fails here rather than leave the test waiting on the write.
      await vi.advanceTimersByTimeAsync(4_999);
      expect(lines).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(lines).toMatchObject([{ dependency: "D1", cause: "D1 did not answer within 5000 ms" }]);
      expect((await answered).status).toBe(200);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(hung.calls).toHaveLength(1);
  });
});
