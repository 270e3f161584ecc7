import { app } from "./app";
import { deleteExpiredIdempotencyKeys } from "./core/queries";
import type { CleanUpOutcome } from "./db/clean-up";
import { createDatabase } from "./db/client";
import { deleteOldDeprecatedCalls } from "./deprecation/usage";
import { messagesOf } from "./lib/faults";

export default {
  fetch: app.fetch,
  /**
   * The hourly cron (wrangler.toml): idempotency records live 24 hours, usage records
   * DEPRECATED_USAGE_RETENTION_DAYS, each deleted in batches (src/db/clean-up.ts). Each
   * clean-up runs whatever the others do and logs what it deleted; each failure is logged,
   * and the run fails if any did.
   */
  async scheduled(controller, env) {
    const db = createDatabase(env.DB);
    const cleanUps: [string, () => Promise<CleanUpOutcome>][] = [
      ["expired idempotency records", () => deleteExpiredIdempotencyKeys(db, controller.scheduledTime)],
      ["old deprecated-call records", () => deleteOldDeprecatedCalls(db, controller.scheduledTime)],
    ];
    const failed: string[] = [];
    await Promise.all(
      cleanUps.map(async ([records, cleanUp]) => {
        try {
          const outcome = await cleanUp();
          console.log(JSON.stringify({ level: "info", message: `the clean-up of ${records}`, ...outcome }));
        } catch (error) {
          failed.push(records);
          const cause = messagesOf(error).at(-1);
          console.error(JSON.stringify({ level: "error", message: `the clean-up of ${records} failed`, cause }));
        }
      }),
    );
    if (failed.length > 0) throw new Error(`clean-ups failed: ${failed.join(", ")}`);
  },
} satisfies ExportedHandler<CloudflareBindings>;
