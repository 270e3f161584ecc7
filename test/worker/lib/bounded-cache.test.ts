import { describe, expect, it } from "vitest";
import { BoundedCache } from "../../../src/lib/bounded-cache";

// The isolate's caches (keys, pets, pages, cursors): what one keeps, for how long, and within
// what budget, on a clock handed in. What each cache spares a request: the tests of its concern.

describe("BoundedCache", () => {
  it("returns an entry while it is fresh, and tells an expired one from one never set", () => {
    let now = 1_000_000;
    const cache = new BoundedCache<string, string>({ share: "pets", maxBytes: 10_000, ttlMs: 100, now: () => now });
    cache.set("key", "value");
    now += 99;
    expect(cache.get("key")).toBe("value");
    expect(cache.hasExpired("key")).toBe(false);
    now += 1;
    expect(cache.get("key")).toBeUndefined();
    expect(cache.hasExpired("key")).toBe(true);
    expect(cache.hasExpired("never set")).toBe(false);
  });

  it("stays within its byte budget, evicting the least recently used entries first", () => {
    const maxBytes = 20_000;
    const cache = new BoundedCache<string, string>({ share: "pets", maxBytes });
    cache.set("first", "a");
    cache.set("second", "b");
    for (let index = 0; index < 50; index++) cache.set(`filler-${index}`, "c");
    expect(cache.get("first")).toBe("a"); // now the most recently used
    for (let index = 0; index < 10_000; index++) cache.set(`random-${index}`, "🐕".repeat(index % 300));
    expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    expect(cache.bytes).toBeGreaterThan(maxBytes / 2);
    expect(cache.get("second")).toBeUndefined();
    expect(cache.get("random-9999")).toBe("🐕".repeat(9999 % 300));
    // An entry larger than the whole budget is not kept, and evicts nothing.
    const before = cache.size;
    cache.set("huge", "x".repeat(maxBytes));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.size).toBe(before);
  });

  it("evicts in the order of last use, reads of the newest entry included", () => {
    // Three entries of one size fill it (a one-character key and value each).
    const cache = new BoundedCache<string, string>({ share: "pets", maxBytes: 3 * 116 });
    for (const key of ["a", "b", "c"]) cache.set(key, key);
    expect([cache.get("a"), cache.get("a"), cache.get("b"), cache.get("b")]).toEqual(["a", "a", "b", "b"]);
    cache.set("d", "d");
    expect(cache.size).toBe(3);
    expect(cache.get("c")).toBeUndefined();
    cache.set("e", "e");
    expect(cache.get("a")).toBeUndefined();
    expect([cache.get("b"), cache.get("d"), cache.get("e")]).toEqual(["b", "d", "e"]);
  });

  it("still hands out an expired entry within a stated staleness, for when the source fails", () => {
    let now = 1_000_000;
    const cache = new BoundedCache<string, string>({ share: "pets", maxBytes: 10_000, ttlMs: 100, now: () => now });
    cache.set("key", "value");
    now += 150;
    expect(cache.get("key")).toBeUndefined();
    expect(cache.getStale("key", 51)).toBe("value");
    expect(cache.getStale("key", 50)).toBeUndefined();
  });
});
