import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { answerAtDeadline } from "../../helpers/deadline";
import { call, createApiKey, expectUnavailable, faultLogLines } from "../../helpers/index";
import { failing } from "../../helpers/wrap-bindings";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/architecture.md: a query that has not answered within 5 s */
const D1_DEADLINE_MS = 5000;

// A D1 call that hangs (test/helpers/wrap-bindings.ts) is given up after D1_DEADLINE_MS and
// answered 503 with Retry-After, not tried again in the request. The test holds the
// clock of the timers from the moment D1 is called, rather than wait for the deadline.

let key: string;
beforeAll(async () => {
  key = await createApiKey("hung D1");
});
afterEach(() => vi.useRealTimers());

/** Sends `path` with D1 hanging, and answers once D1_DEADLINE_MS has passed on the timers after D1 was called. */
const withD1Hanging = async (path: string, init: Parameters<typeof call>[1] = {}) => {
  const hung = failing(env, { binding: "DB", sql: /"pets"/, error: "hangs" });
  const response = await answerAtDeadline(
    () => call(path, { key, bindings: hung.env, ...init }),
    () => hung.calls.length,
    D1_DEADLINE_MS,
  );
  return { response, calls: hung.calls };
};

describe(`a D1 call that hangs is given up after ${D1_DEADLINE_MS} ms`, () => {
  it("on a read: 503 with Retry-After, tried once", async () => {
    const lines = await faultLogLines(async () => {
      const { response, calls } = await withD1Hanging("/v1/pets?status=sold&limit=3");
      await expectUnavailable(response);
      expect(calls).toHaveLength(1);
    });
    expect(lines).toMatchObject([{ dependency: "D1", cause: `D1 did not answer within ${D1_DEADLINE_MS} ms` }]);
  });

  it("on a create: 503 saying that the pet may have been created, unless it had an Idempotency-Key", async () => {
    await faultLogLines(async () => {
      const plain = await withD1Hanging("/v1/pets", { method: "POST", json: { name: "Hung Rex", categoryId: 1 } });
      expect((await expectUnavailable(plain.response)).message).toMatch(/may have been created/);
      const keyed = await withD1Hanging("/v1/pets", {
        method: "POST",
        json: { name: "Hung Tom", categoryId: 1 },
        headers: { "Idempotency-Key": crypto.randomUUID() },
      });
      expect((await expectUnavailable(keyed.response)).message).not.toMatch(/may have been created/);
    });
  });
});
