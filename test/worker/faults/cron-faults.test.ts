import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../src/index";
import { faultLogLines } from "../../helpers/index";
import { OPEN_SEGMENT } from "../../helpers/segments";
import { d1Error, failing } from "../../helpers/wrap-bindings";

// The hourly cron when a store fails (src/index.ts): each clean-up runs whatever the others
// do, a failure is logged with the clean-up it belongs to, and the run is reported failed.

describe("the hourly cron", () => {
  it("runs every clean-up when one fails, logs the failure, and reports the run failed", async () => {
    await env.DB.prepare("insert into deprecated_calls values ('cron-old', 'x', 'getPet', '2000-01-01', 1, 0)").run();
    const broken = failing(env, {
      binding: "DB",
      segment: OPEN_SEGMENT,
      sql: /idempotency_keys/,
      error: d1Error("D1 DB is overloaded."),
    });
    const lines = await faultLogLines(async () => {
      await expect(
        worker.scheduled({ scheduledTime: Date.now(), cron: "17 * * * *", noRetry() {} }, broken.env),
      ).rejects.toThrow("clean-ups failed: expired idempotency records");
    });
    expect(lines).toMatchObject([
      {
        level: "error",
        cleanUp: "idempotency-records",
        cause: "D1_ERROR: D1 DB is overloaded.",
      },
    ]);
    const left = await env.DB.prepare(
      "select count(*) as count from deprecated_calls where api_key_hash = 'cron-old'",
    ).first();
    expect(left).toEqual({ count: 0 });
  });
});
