import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { countRoundTrips } from "../bench/count-bindings";
import { hashApiKey } from "../src/api-keys";
import { ApiKeyCache, KNOWN_KEY_TTL_MS, UNKNOWN_KEY_TTL_MS } from "../src/auth";
import worker from "../src/index";
import { BASE_URL, createApiKey, expectError } from "./helpers";

const record = { label: "cached", createdAt: "2026-01-01T00:00:00.000Z" };

describe("ApiKeyCache", () => {
  it("keeps a known key for KNOWN_KEY_TTL_MS and an unknown one for UNKNOWN_KEY_TTL_MS", () => {
    let now = 1_000_000;
    const cache = new ApiKeyCache(() => now);
    cache.set("known", record);
    cache.set("unknown", null);
    now += UNKNOWN_KEY_TTL_MS - 1;
    expect(cache.get("unknown")).toEqual({ record: null, expiresAt: expect.any(Number) });
    now += 1;
    expect(cache.get("unknown")).toBeUndefined();
    expect(cache.get("known")?.record).toEqual(record);
    now = 1_000_000 + KNOWN_KEY_TTL_MS;
    expect(cache.get("known")).toBeUndefined();
  });

  it("stays within its bound under a flood of random keys, evicting the oldest first", () => {
    const cache = new ApiKeyCache(() => 0, 100);
    cache.set("first", record);
    for (let index = 0; index < 10_000; index++) cache.set(`random-${index}`, null);
    expect(cache.size).toBe(100);
    expect(cache.get("first")).toBeUndefined();
    expect(cache.get("random-9999")).toBeDefined();
  });
});

describe("key lookups through the Worker", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const fetchPets = (key: string, workerEnv: Cloudflare.Env) =>
    worker.fetch(
      new Request(`${BASE_URL}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } }),
      workerEnv,
      createExecutionContext(),
    );

  it("reads KV once for a key, then answers from the isolate's cache", async () => {
    const key = await createApiKey();
    const counted = countRoundTrips(env);
    expect((await fetchPets(key, counted.env)).status).toBe(200);
    expect(counted.counts.kv).toBe(1);
    expect((await fetchPets(key, counted.env)).status).toBe(200);
    expect(counted.counts.kv).toBe(1);
  });

  it("reads KV once for an unknown key within UNKNOWN_KEY_TTL_MS", async () => {
    const counted = countRoundTrips(env);
    const unknown = `ps_test_${"x".repeat(43)}`;
    await expectError(await fetchPets(unknown, counted.env), 401, "unauthorized");
    await expectError(await fetchPets(unknown, counted.env), 401, "unauthorized");
    expect(counted.counts.kv).toBe(1);
  });

  it("refuses a revoked key once KNOWN_KEY_TTL_MS has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const key = await createApiKey("revoked");
    expect((await fetchPets(key, env)).status).toBe(200);
    await env.API_KEYS.delete(await hashApiKey(key));
    vi.advanceTimersByTime(KNOWN_KEY_TTL_MS - 1000);
    expect((await fetchPets(key, env)).status).toBe(200);
    vi.advanceTimersByTime(1000);
    await expectError(await fetchPets(key, env), 401, "unauthorized");
  });
});
