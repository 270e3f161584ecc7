import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { unwrittenUsageBytes } from "../../../src/deprecation/usage";
import { generateApiKey, hashApiKey } from "../../../src/keys/api-key";
import { type CacheShare, cachedBytes, estimateBytes } from "../../../src/lib/bounded-cache";
import { call, nextLink } from "../../helpers/index";
import { petsDatabase } from "../../helpers/segments";

// The budget and its shares as docs/architecture.md states them ("Memory with a ceiling"),
// written here rather than imported, so that a change to the code that the docs do not
// follow fails this test.
const MiB = 1024 * 1024;
const CACHE_BUDGET_BYTES = 16 * MiB;
const CACHE_SHARES: Record<CacheShare, number> = {
  pets: 10 * MiB,
  pages: 2 * MiB,
  knownKeys: 2 * MiB,
  keyHashes: 256 * 1024,
  unknownKeys: 256 * 1024,
  usageCounts: 256 * 1024,
  lastUsedDays: 256 * 1024,
  cursors: 256 * 1024,
};

// The isolate's caches filled with the worst case the API allows: names of 255 astral
// characters (four bytes of UTF-8, two UTF-16 code units each), full pages of 100 and
// every limit from 90 to 100 through every cursor, keys with 1,000-character labels
// (each key's day of last use recorded), and unknown keys. What they hold, estimated, stays within CACHE_BUDGET_BYTES (16 MiB,
// against the isolate's 128 MB), and each cache is filled to its share.
//
// A cached page holds its pets' ids, not the pets: the many pages that fill the page and
// cursor caches are walked over pending pets with one-letter names (cheap to send), and
// the pet cache is filled last by the available pets with the longest names.

const PETS = 8_000;
const PAGED_PETS = 6_000;
const KEYS = 1_200;
const DEPRECATED_CALLERS = 360;
const UNKNOWN_KEYS = 1_300;
const AT_ONCE = 25;

afterEach(() => {
  vi.useRealTimers();
});

/** Sends every request, AT_ONCE at a time, each from an address of its own (a never-seen key counts against its address). */
const sendAll = async (paths: string[], keyOf: (index: number) => string, expected: number) => {
  for (let start = 0; start < paths.length; start += AT_ONCE) {
    const responses = await Promise.all(
      paths.slice(start, start + AT_ONCE).map((path, offset) => {
        const index = start + offset;
        // Wrapped bindings: the Worker runs in a context of the test's, whose deferred work may wait.
        const headers = { "CF-Connecting-IP": `198.18.${index >> 8}.${index & 255}` };
        return call(path, { key: keyOf(index), headers, bindings: env });
      }),
    );
    expect(responses.map(({ status }) => status)).toEqual(responses.map(() => expected));
    await Promise.all(responses.map((response) => response.arrayBuffer()));
  }
};

describe("the isolate's caches", () => {
  it("stay within the budget when filled with the worst case", async () => {
    // No usage flush runs meanwhile: the deprecated calls stay counted in memory.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    await petsDatabase()
      .prepare(
        `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${PAGED_PETS})
       insert into pets (name, category_id, status) select 'p', i, 'pending' from n`,
      )
      .run();
    await petsDatabase()
      .prepare(
        `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${PETS})
       insert into pets (name, category_id, status) select replace(printf('%.*c', 255, 'x'), 'x', '🐕'), i, 'available' from n`,
      )
      .run();
    const keys = Array.from({ length: KEYS }, () => generateApiKey("development"));
    const label = "l".repeat(1000);
    await Promise.all(
      keys.map(async (key) =>
        env.API_KEYS.put(await hashApiKey(key), JSON.stringify({ label, createdAt: new Date().toISOString() })),
      ),
    );
    // Each authenticated request with a key of its own, so that every one adds to the key caches.
    let used = 0;
    const nextKey = () => {
      const key = keys[used++];
      if (!key) throw new Error(`more authenticated requests than the ${KEYS} keys`);
      return key;
    };

    /** Every page from the first, following each page's next link. */
    const walk = async (firstPath: string, address: string) => {
      let path: string | undefined = firstPath;
      for (let page = 0; path; page++) {
        const headers = { "CF-Connecting-IP": `${address}.${page & 255}` };
        const response = await call(path, { key: nextKey(), headers, bindings: env });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        path = nextLink(response);
      }
    };
    // The pending pets at every limit from 90 to 100: pages and cursors.
    const limits = Array.from({ length: 11 }, (_, index) => 90 + index);
    await Promise.all(limits.map((limit) => walk(`/v1/pets?status=pending&limit=${limit}`, `198.19.${limit}`)));
    // Keys call getPet (its record, its deprecated calls); unknown keys are refused.
    const firstAvailable =
      (
        await petsDatabase()
          .prepare("select min(id) as id from pets where status = 'available'")
          .first<{ id: number }>()
      )?.id ?? 0;
    await sendAll(
      Array.from({ length: DEPRECATED_CALLERS }, (_, index) => `/v1/pets/${firstAvailable + index}`),
      nextKey,
      200,
    );
    await sendAll(Array(UNKNOWN_KEYS).fill("/v1/pets"), () => generateApiKey("development"), 401);
    // The available pets, more than the pet cache holds.
    await walk("/v1/pets?status=available&limit=100", "198.20.0");

    const held: Record<CacheShare, number> = {
      pets: 0,
      pages: 0,
      knownKeys: 0,
      keyHashes: 0,
      unknownKeys: 0,
      lastUsedDays: 0,
      cursors: 0,
      ...cachedBytes(),
      usageCounts: unwrittenUsageBytes(),
    };
    expect(Object.values(held).reduce((sum, bytes) => sum + bytes, 0)).toBeLessThanOrEqual(CACHE_BUDGET_BYTES);
    for (const [share, bytes] of Object.entries(held) as [CacheShare, number][]) {
      expect(bytes, share).toBeLessThanOrEqual(CACHE_SHARES[share]);
      expect(bytes, share).toBeGreaterThan(CACHE_SHARES[share] * 0.9);
    }
    // The flush held back runs now, rather than wait for ever on a clock that afterEach lets go.
    await vi.runOnlyPendingTimersAsync();
  });

  it("estimate a string at two bytes per UTF-16 code unit at least, as V8 stores such names", () => {
    const name = "🐕".repeat(255);
    expect(estimateBytes(name)).toBeGreaterThanOrEqual(2 * name.length);
    expect(estimateBytes({ id: 1, name, categoryId: 1, status: "available" })).toBeGreaterThan(2 * name.length);
  });
});
