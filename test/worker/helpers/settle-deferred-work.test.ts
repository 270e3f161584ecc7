import { createExecutionContext } from "cloudflare:test";
import { expect, it } from "vitest";
import { isPlainWait, settleDeferredWork } from "../../helpers/settle-deferred-work";

// What each worker file's end does (test/helpers/settle-deferred-work.ts), seen from one
// test: work left after an answer, waiting an hour, settles. Were its wait not cut short, the
// pool would give up on it after 30 s, unsettled.

const HOUR_MS = 3_600_000;

it("wakes the plain waits of the work after an answer", async () => {
  const context = createExecutionContext();
  let woken = false;
  context.waitUntil(
    new Promise((resolve) => setTimeout(resolve, HOUR_MS)).then(() => {
      woken = true;
    }),
  );
  await settleDeferredWork();
  expect(woken).toBe(true);
});

it("takes a promise's own resolve for a plain wait, and a deadline's handler, which rejects, for none", () => {
  let resolveOf: unknown;
  const deadline = new Promise((resolve, reject) => {
    resolveOf = resolve;
    expect(isPlainWait(() => reject(new Error("did not answer in time")))).toBe(false);
    resolve(undefined);
  });
  expect(isPlainWait(resolveOf)).toBe(true);
  return deadline;
});
