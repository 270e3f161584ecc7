import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Pet } from "../../../src/schemas";
import { call, expectError, expectUnavailable, faultLogLines, keyWithPet } from "../../helpers/index";
import { FIRST_PAGE_QUERIES, petsDatabase } from "../../helpers/segments";
import { d1Error, failing } from "../../helpers/wrap-bindings";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/architecture.md: up to 3 attempts in all */
const D1_MAX_ATTEMPTS = 3;

// Production's bad days in D1, injected into the real binding (test/helpers/wrap-bindings.ts):
// each error Cloudflare documents (D1's "retry queries" page), and the two that the local D1
// gives with its file locked from another process (recorded with wrangler 4.155;
// test/e2e/local/outages.test.ts sees it give them still), once or always, before or after
// the write committed. Each answer is checked against openapi.json like every other (call()
// in ./helpers). KV, the rate limiters and the cron: test/worker/faults/faults.test.ts.

const RETRYABLE = [
  "Network connection lost.",
  "D1 DB reset because its code was updated.",
  "Internal error in D1 DB storage caused object to be reset.",
  "Cannot resolve D1 DB due to transient issue on remote node.",
  "Failed to get session commit token: internal error; reference = 53bc1abh3alohjgvbfbi8lsq",
];
const BACK_OFF = [
  "D1 DB is overloaded. Requests queued for too long.",
  "D1 DB storage operation exceeded timeout which caused object to be reset.",
  "database is locked: SQLITE_BUSY",
];

let key: string;
let pet: Pet;
beforeAll(async () => {
  ({ key, pet } = await keyWithPet("faults"));
  // With segments, an isolate reads once which closed ones may hold a young Idempotency-Key (src/core/open-segment.ts).
  await call("/v1/pets", {
    key,
    method: "POST",
    json: { name: "Warm", categoryId: 1 },
    headers: { "Idempotency-Key": "warm" },
  });
});
afterEach(() => vi.useRealTimers());

const petsNamed = async (name: string) =>
  (
    await petsDatabase()
      .prepare("select count(*) as count from pets where name = ?")
      .bind(name)
      .first<{ count: number }>()
  )?.count;

describe("a D1 fault on a read", () => {
  it.each(RETRYABLE)("'%s' once: retried, and answered 200", async (message) => {
    const flaky = failing(env, { binding: "DB", error: d1Error(message), times: 1 });
    const response = await call("/v1/pets?status=pending", { key, bindings: flaky.env });
    expect(response.status).toBe(200);
    expect(await response.json()).toContainEqual(pet);
    expect(flaky.calls).toHaveLength(FIRST_PAGE_QUERIES + 1);
  });

  it.each(RETRYABLE)(
    `'%s' always: ${D1_MAX_ATTEMPTS} attempts, then 503 (an unknown id too, never 404)`,
    async (message) => {
      // Only the pets' queries: getPet's usage recording writes apart (test/worker/deprecation/deprecation.test.ts).
      const down = failing(env, { binding: "DB", sql: /from "pets"/, error: d1Error(message) });
      const lines = await faultLogLines(async () => {
        await expectUnavailable(await call("/v1/pets?status=sold", { key, bindings: down.env }));
        await expectUnavailable(await call("/v1/pets/987654", { key, bindings: down.env }));
      });
      expect(down.calls).toHaveLength(2 * D1_MAX_ATTEMPTS);
      expect(lines).toMatchObject([
        {
          level: "warn",
          dependency: "D1",
          cause: `D1_ERROR: ${message}`,
          d1Retries: D1_MAX_ATTEMPTS - 1,
          outcome: "503",
        },
        { level: "warn", dependency: "D1", d1Retries: D1_MAX_ATTEMPTS - 1 },
      ]);
    },
  );

  it.each(BACK_OFF)("'%s': 503 at once, not retried", async (message) => {
    const overloaded = failing(env, { binding: "DB", error: d1Error(message) });
    await faultLogLines(async () => {
      await expectUnavailable(await call("/v1/pets?status=sold", { key, bindings: overloaded.env }));
    });
    expect(overloaded.calls).toHaveLength(1);
  });

  it("that is not transient (a bug, a missing table) stays a 500", async () => {
    const broken = failing(env, { binding: "DB", error: d1Error("no such table: pets: SQLITE_ERROR") });
    await faultLogLines(async () => {
      await expectError(await call("/v1/pets?status=sold", { key, bindings: broken.env }), 500, "internal_error");
    });
    expect(broken.calls).toHaveLength(1);
  });

  it("puts the retries in the access log line", async () => {
    const flaky = failing(env, { binding: "DB", error: d1Error(RETRYABLE[0] as string), times: 2 });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect((await call("/v1/pets?status=pending", { key, bindings: flaky.env })).status).toBe(200);
      expect(JSON.parse(String(log.mock.calls.at(-1)?.[0]))).toMatchObject({ status: 200, d1Retries: 2 });
    } finally {
      log.mockRestore();
    }
  });
});

describe("a D1 fault on POST /v1/pets", () => {
  const post = (name: string, bindings: Cloudflare.Env, idempotencyKey?: string) =>
    call("/v1/pets", {
      method: "POST",
      key,
      json: { name, categoryId: 1 },
      headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {},
      bindings,
    });

  it("without an Idempotency-Key is not retried (it may have committed): 503 that says to send one", async () => {
    const lost = failing(env, { binding: "DB", error: d1Error("Network connection lost."), when: "after" });
    const lines = await faultLogLines(async () => {
      const error = await expectUnavailable(await post("Committed once", lost.env));
      expect(error.message).toMatch(/may have been created: retry with an Idempotency-Key/);
    });
    expect(lost.calls).toHaveLength(1);
    expect(await petsNamed("Committed once")).toBe(1);
    expect(lines).toMatchObject([{ dependency: "D1", outcome: "503, not retried: may have committed" }]);
  });

  it("with an Idempotency-Key, whose answer was lost after the commit: retried, and the pet exists once", async () => {
    const lost = failing(env, { binding: "DB", error: d1Error("Network connection lost."), when: "after", times: 1 });
    const response = await post("Retried batch", lost.env, "lost-answer");
    expect(response.status).toBe(201);
    expect(response.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await petsNamed("Retried batch")).toBe(1);
    // The batch, the batch again (refused on the recorded key), the replay's read on the primary.
    expect(lost.calls.map(({ method, session }) => [method, session])).toEqual([
      ["batch", "first-unconstrained"],
      ["batch", "first-unconstrained"],
      ["all", "first-primary"],
    ]);
  });

  it("with an Idempotency-Key, always failing: 503 after the retries, nothing stored; a later retry creates it once", async () => {
    const down = failing(env, {
      binding: "DB",
      error: d1Error("Cannot resolve D1 DB due to transient issue on remote node."),
    });
    await faultLogLines(async () => {
      await expectUnavailable(await post("Later", down.env, "retry-later"));
    });
    expect(down.calls).toHaveLength(D1_MAX_ATTEMPTS);
    expect(await petsNamed("Later")).toBe(0);
    expect((await post("Later", env, "retry-later")).status).toBe(201);
    expect((await post("Later", env, "retry-later")).headers.get("Idempotent-Replayed")).toBe("true");
    expect(await petsNamed("Later")).toBe(1);
  });

  it("with an Idempotency-Key, failing for another reason: answered with that error, no replay read", async () => {
    const broken = failing(env, { binding: "DB", error: d1Error("CHECK constraint failed: SQLITE_CONSTRAINT") });
    const lines = await faultLogLines(async () => {
      await expectError(await post("Broken", broken.env, "broken"), 500, "internal_error");
    });
    expect(broken.calls.map(({ method }) => method)).toEqual(["batch"]);
    expect(lines).toMatchObject([{ level: "error", error: expect.stringContaining("CHECK constraint failed") }]);
  });
});
