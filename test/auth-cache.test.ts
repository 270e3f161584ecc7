import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateApiKey, hashApiKey } from "../src/api-keys";
import { KNOWN_KEY_TTL_MS, UNKNOWN_KEY_TTL_MS } from "../src/auth";
import { BoundedCache } from "../src/bounded-cache";
import worker from "../src/index";
import { countRoundTrips } from "./count-bindings";
import { BASE_URL, createApiKey, expectError } from "./helpers";

/** listPets straight through the Worker's fetch, as a client at `address`. */
const fetchPets = (key: string, workerEnv: Cloudflare.Env, address = "198.51.100.1") =>
  worker.fetch(
    new Request(`${BASE_URL}/v1/pets`, { headers: { Authorization: `Bearer ${key}`, "CF-Connecting-IP": address } }),
    workerEnv,
    createExecutionContext(),
  );

describe("BoundedCache", () => {
  it("returns an entry while it is fresh, and tells an expired one from one never set", () => {
    let now = 1_000_000;
    const cache = new BoundedCache<string, string>({ maxEntries: 10, ttlMs: 100, now: () => now });
    cache.set("key", "value");
    now += 99;
    expect(cache.get("key")).toBe("value");
    expect(cache.hasExpired("key")).toBe(false);
    now += 1;
    expect(cache.get("key")).toBeUndefined();
    expect(cache.hasExpired("key")).toBe(true);
    expect(cache.hasExpired("never set")).toBe(false);
  });

  it("stays within its bound, evicting the least recently used entry first", () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 100 });
    cache.set("first", 1);
    cache.set("second", 2);
    for (let index = 0; index < 98; index++) cache.set(`filler-${index}`, index);
    expect(cache.get("first")).toBe(1); // now the most recently used
    for (let index = 0; index < 10_000; index++) cache.set(`random-${index}`, index);
    expect(cache.size).toBe(100);
    expect(cache.get("second")).toBeUndefined();
    expect(cache.get("random-9999")).toBe(9999);
  });
});

describe("key lookups through the Worker", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

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
    const unknown = generateApiKey("development");
    await expectError(await fetchPets(unknown, counted.env, "198.51.100.2"), 401, "unauthorized");
    await expectError(await fetchPets(unknown, counted.env, "198.51.100.2"), 401, "unauthorized");
    expect(counted.counts.kv).toBe(1);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.advanceTimersByTime(UNKNOWN_KEY_TTL_MS);
    await expectError(await fetchPets(unknown, counted.env, "198.51.100.2"), 401, "unauthorized");
    expect(counted.counts.kv).toBe(2);
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

describe("a client guessing keys", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // AUTH_FAILURE_LIMITER in wrangler.toml: 60 attempts per address and minute.
  const ALLOWED_ATTEMPTS = 60;
  const GUESSES = 10_000;

  it(`gets 429 with Retry-After once past ${ALLOWED_ATTEMPTS} unknown keys a minute, and costs at most that many KV reads a minute for ${GUESSES} guesses`, async () => {
    const counted = countRoundTrips(env);
    const firstMinute = Math.floor(Date.now() / 60_000);
    const attacker = "203.0.113.7";
    const statuses = new Map<number, number>();
    let firstRefusal: Response | undefined;
    for (let guess = 0; guess < GUESSES; guess++) {
      const response = await fetchPets(generateApiKey("development"), counted.env, attacker);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 429) firstRefusal ??= response;
      else await response.arrayBuffer();
    }
    // The limiter's windows are aligned to the clock's minutes: a run that crosses one
    // gets a fresh allowance there.
    const minutes = Math.floor(Date.now() / 60_000) - firstMinute + 1;
    const allowed = ALLOWED_ATTEMPTS * minutes;
    expect(Object.fromEntries(statuses)).toEqual({ 401: allowed, 429: GUESSES - allowed });
    expect(counted.counts.kv).toBe(allowed);
    const refusal = await expectError(firstRefusal as Response, 429, "rate_limited");
    expect(refusal.message).toMatch(/unknown API keys/);
    expect(firstRefusal?.headers.get("Retry-After")).toBe("60");
  }, 120_000);

  it("does not lock out a valid key in use behind the same address, nor other addresses", async () => {
    const shared = "203.0.113.8";
    const key = await createApiKey("behind the same NAT");
    expect((await fetchPets(key, env, shared)).status).toBe(200);
    for (let guess = 0; guess <= ALLOWED_ATTEMPTS; guess++) {
      await (await fetchPets(generateApiKey("development"), env, shared)).arrayBuffer();
    }
    await expectError(await fetchPets(generateApiKey("development"), env, shared), 429, "rate_limited");
    expect((await fetchPets(key, env, shared)).status).toBe(200);
    // Past the isolate's trust in it, the key is read again all the same.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.advanceTimersByTime(KNOWN_KEY_TTL_MS);
    expect((await fetchPets(key, env, shared)).status).toBe(200);
    await expectError(await fetchPets(generateApiKey("development"), env, "203.0.113.9"), 401, "unauthorized");
  });
});
