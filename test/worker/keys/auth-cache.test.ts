import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addressGroup } from "../../../src/keys/address-group";
import { generateApiKey, hashApiKey } from "../../../src/keys/api-key";
import { call, createApiKey, expectError } from "../../helpers/index";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { countRoundTrips } from "../../helpers/wrap-bindings";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/keys.md: a change to a key reaches every isolate within 60 s */
const KNOWN_KEY_TTL_MS = 60_000;
/** docs/keys.md: an isolate remembers an unknown key for 5 s */
const UNKNOWN_KEY_TTL_MS = 5_000;

/** listPets as a client at `address`, on `bindings`. */
const fetchPets = (key: string, bindings: Cloudflare.Env, address = "198.51.100.1") =>
  call("/v1/pets", { key, bindings, headers: { "CF-Connecting-IP": address } });

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

  it("hashes a key once, then knows it by itself while it is trusted", async () => {
    const key = await createApiKey("hashed once");
    const digest = vi.spyOn(crypto.subtle, "digest");
    for (let request = 0; request < 3; request++) expect((await fetchPets(key, env)).status).toBe(200);
    expect(digest).toHaveBeenCalledTimes(1);
    digest.mockRestore();
  });

  it("hashes a refused key at each request: only an admitted key is remembered, so a flood of others cannot push it out", async () => {
    const refused = [
      generateApiKey("development"),
      await createApiKey("expired", { expiresAt: "2020-01-01T00:00:00Z" }),
    ];
    const digest = vi.spyOn(crypto.subtle, "digest");
    for (const key of refused) {
      for (let request = 0; request < 3; request++) expect((await fetchPets(key, env)).status).toBe(401);
    }
    expect(digest).toHaveBeenCalledTimes(6);
    digest.mockRestore();
  });

  it("reads a revoked key's absence once, then remembers it as unknown: a client sending it again costs no more reads", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const key = await createApiKey("revoked, then retried");
    const counted = countRoundTrips(env);
    expect((await fetchPets(key, counted.env, "198.51.100.3")).status).toBe(200);
    await env.API_KEYS.delete(await hashApiKey(key));
    vi.advanceTimersByTime(KNOWN_KEY_TTL_MS);
    for (let request = 0; request < 3; request++) {
      await expectError(await fetchPets(key, counted.env, "198.51.100.3"), 401, "unauthorized");
    }
    expect(counted.counts.kv).toBe(2);
  });

  it("reads KV once for an unknown key within UNKNOWN_KEY_TTL_MS, and again from its end on", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const counted = countRoundTrips(env);
    const unknown = generateApiKey("development");
    await expectError(await fetchPets(unknown, counted.env, "198.51.100.2"), 401, "unauthorized");
    vi.advanceTimersByTime(UNKNOWN_KEY_TTL_MS - 1);
    await expectError(await fetchPets(unknown, counted.env, "198.51.100.2"), 401, "unauthorized");
    expect(counted.counts.kv).toBe(1);
    vi.advanceTimersByTime(1);
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

describe("the unknown-key throttle's unit", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:85a3:1234:5678:8a2e:370:7334", "2001:db8:85a3:1234::/64"],
    ["2001:db8:85a3:1234::1", "2001:db8:85a3:1234::/64"],
    ["2001:DB8:0:0:ffff::", "2001:db8:0:0::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:198.51.100.4", "198.51.100.4"],
    ["::ffff:198.51.100.44", "198.51.100.44"],
    ["2001::1:2:3:4:5:6", "2001:0:1:2::/64"],
    // Not IPv4 mapped: what precedes or follows the IPv4 part makes it an IPv6 address, or none.
    ["1::ffff:198.51.100.4", "1:0:0:0::/64"],
    ["::ffff:198.51.100.4x", "0:0:0:0::/64"],
    // Not an IPv6 address with a /64 to count: left as sent.
    ["2001:db8:1", "2001:db8:1"],
    ["2001:db8:12345::1", "2001:db8:12345::1"],
    ["2001:db8:zz1::1", "2001:db8:zz1::1"],
    ["not an address", "not an address"],
  ])("for %s is %s", (address, group) => {
    expect(addressGroup(address)).toBe(group);
  });

  it("is shared by every address of an IPv6 /64: a client cannot rotate addresses to guess more", async () => {
    // Each guess from another address of one /64. Counted per address, none would ever be
    // refused; counted per /64, one is within two windows' allowance (60 a minute; a run
    // may cross a minute boundary once).
    const network = "2001:db8:aaaa:bbbb";
    let firstRefusal: number | undefined;
    for (let guess = 0; guess < 2 * 60 + 1 && firstRefusal === undefined; guess++) {
      const response = await fetchPets(generateApiKey("development"), env, `${network}:${guess.toString(16)}::1`);
      if (response.status === 429) firstRefusal = guess;
      await response.arrayBuffer();
    }
    expect(firstRefusal).toBeDefined();
    await expectError(
      await fetchPets(generateApiKey("development"), env, "2001:db8:aaaa:cccc::1"),
      401,
      "unauthorized",
    );
  });
});

describe("a client guessing keys", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // AUTH_FAILURE_LIMITER in wrangler.toml: 60 attempts per address and minute.
  const ALLOWED_ATTEMPTS = 60;
  const GUESSES = 1_000;

  // A thousand requests: about a second alone, several on a loaded machine.
  it(`gets 429 with Retry-After once past ${ALLOWED_ATTEMPTS} unknown keys a minute, and costs that many KV reads for ${GUESSES} guesses`, async () => {
    const { statuses, kvReads, firstRefusal } = await inOneLimiterWindow(async (run) => {
      const counted = countRoundTrips(env);
      const attacker = `203.0.113.${7 + run}`;
      const statuses = new Map<number, number>();
      let firstRefusal: Response | undefined;
      for (let guess = 0; guess < GUESSES; guess++) {
        const response = await fetchPets(generateApiKey("development"), counted.env, attacker);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 429) firstRefusal ??= response;
        else await response.arrayBuffer();
      }
      return { statuses: Object.fromEntries(statuses), kvReads: counted.counts.kv, firstRefusal };
    });
    expect(statuses).toEqual({ 401: ALLOWED_ATTEMPTS, 429: GUESSES - ALLOWED_ATTEMPTS });
    expect(kvReads).toBe(ALLOWED_ATTEMPTS);
    const refusal = await expectError(firstRefusal as Response, 429, "rate_limited");
    expect(refusal.message).toMatch(/unknown API keys/);
    expect(firstRefusal?.headers.get("Retry-After")).toBe("60");
  });

  it("does not lock out a valid key in use behind the same address, nor other addresses", async () => {
    const { key, shared, guessed, refused, stillServed } = await inOneLimiterWindow(async (run) => {
      // A key of each run's own: a run after one that crossed a window must find it unknown
      // to the isolate too, or its first use would not take an attempt of the allowance.
      const key = await createApiKey(`behind the same NAT, run ${run}`);
      const shared = `203.0.113.${20 + run}`;
      expect((await fetchPets(key, env, shared)).status).toBe(200);
      const guessed: number[] = [];
      for (let guess = 0; guess <= ALLOWED_ATTEMPTS; guess++) {
        const response = await fetchPets(generateApiKey("development"), env, shared);
        guessed.push(response.status);
        await response.arrayBuffer();
      }
      const refused = await fetchPets(generateApiKey("development"), env, shared);
      const stillServed = (await fetchPets(key, env, shared)).status;
      return { key, shared, guessed, refused, stillServed };
    });
    // The key's first use in this isolate took one attempt of the address's allowance.
    expect(guessed.filter((status) => status === 401)).toHaveLength(ALLOWED_ATTEMPTS - 1);
    await expectError(refused, 429, "rate_limited");
    expect(stillServed).toBe(200);
    // Past the isolate's trust in it, the key is read again all the same.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.advanceTimersByTime(KNOWN_KEY_TTL_MS);
    expect((await fetchPets(key, env, shared)).status).toBe(200);
    await expectError(await fetchPets(generateApiKey("development"), env, "203.0.113.9"), 401, "unauthorized");
  });
});
