import { expect, it } from "vitest";
import { MAX_SEED_COUNT, parseSeedCount } from "../../../scripts/seed";

// `npm run seed -- --count N` reads N strictly, before it writes anything (the seeding
// itself runs in bench/run.ts, which seeds its scratch database with the same code).

it(`reads --count as decimal digits from 0 to ${MAX_SEED_COUNT}, and refuses anything else`, () => {
  expect([parseSeedCount("0"), parseSeedCount("100"), parseSeedCount(String(MAX_SEED_COUNT))]).toEqual([
    0,
    100,
    MAX_SEED_COUNT,
  ]);
  for (const wrong of [undefined, "", "1e1", "0x3", " 2", "2 ", "-1", "2.5", "+3", String(MAX_SEED_COUNT + 1)]) {
    expect(() => parseSeedCount(wrong), String(wrong)).toThrow(/^--count is .*\nUsage: npm run seed -- --count N/);
  }
});
