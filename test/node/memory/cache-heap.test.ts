import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { cachePet } from "../../../src/core/cache";
import { cachedBytes } from "../../../src/lib/bounded-cache";

// The caches are bounded by an estimate of what they hold (src/lib/bounded-cache.ts), not by
// the heap itself, which a Worker cannot read. Here the pet cache, the largest share, is filled
// to its 10 MiB with the worst pets the API accepts, on the same V8 as workerd's, and the heap
// it really took is measured: the estimate must not be below it. Node's V8 keeps full 64-bit
// pointers where workerd's compresses them, so workerd's heap for the same pets is smaller still.

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const PETS_SHARE = 10 * 1024 * 1024;
const ASTRAL = 0x1f400;
/**
 * A name of 255 astral characters (two UTF-16 code units each), distinct for each id, and
 * parsed from JSON as a request's or D1's would be: a flat string of its own, not a rope that
 * shares its repeated part with the other names.
 */
const worstName = (id: number): string => {
  const digits = [0, 1, 2, 3].map((place) => String.fromCodePoint(ASTRAL + ((id >> (6 * place)) & 63)));
  return JSON.parse(JSON.stringify(String.fromCodePoint(ASTRAL + 100).repeat(251) + digits.join("")));
};

it("the pet cache, filled to its share with the longest names, takes no more heap than it estimates", () => {
  const before = heapUsed();
  let id = 1;
  while ((cachedBytes().pets ?? 0) < PETS_SHARE * 0.99) {
    cachePet({ id, name: worstName(id), categoryId: id, status: "available" });
    id++;
  }
  const heap = heapUsed() - before;
  const estimated = cachedBytes().pets ?? 0;
  expect(id).toBeGreaterThan(1000);
  expect(heap).toBeGreaterThan(estimated / 2);
  expect(heap).toBeLessThanOrEqual(estimated);
});
