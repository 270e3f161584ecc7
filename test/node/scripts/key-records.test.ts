import { expect, it } from "vitest";
import { seenEverywhereAfterMs } from "../../../scripts/lib/key-records";

// docs/keys.md: key:roll and key:revoke say a change reaches every isolate within 60 s
// locally (an isolate keeps a record 60 s), and 120 s for --remote (KV's edge cache, read
// with cacheTtl 60, adds 60 s: "about two minutes" everywhere). Written here as literals.

it("names 60 s locally and 120 s for --remote as the time by which every isolate acts on a changed key", () => {
  expect(seenEverywhereAfterMs({ remote: false })).toBe(60_000);
  expect(seenEverywhereAfterMs({ remote: true, env: "production" })).toBe(120_000);
});
