import { app } from "./app";
import { deleteExpiredIdempotencyKeys } from "./core/queries";
import { segmentsToClean } from "./core/segments-to-clean";
import { CLEAN_UP_MAX_QUERIES, type CleanUpOutcome } from "./db/clean-up";
import { createDatabase } from "./db/client";
import { segmentLayout } from "./db/segments";
import { deleteOldDeprecatedCalls } from "./deprecation/usage";
import { messagesOf } from "./lib/faults";

export default {
  fetch: app.fetch,
  /**
   * The hourly cron (wrangler.toml): idempotency records live 24 hours, usage records
   * DEPRECATED_USAGE_RETENTION_DAYS, each deleted in batches (src/db/clean-up.ts), the
   * idempotency records in every segment that may hold some (src/core/segments-to-clean.ts),
   * within one budget of queries. Each clean-up runs whatever the others do and logs what it
   * deleted; each failure is logged, and the run fails if any did.
   */
  async scheduled(controller, env) {
    const now = controller.scheduledTime;
    const budget = { left: CLEAN_UP_MAX_QUERIES };
    // Each named in words for a reader and in fields for a query of the logs; by segment when
    // there are several, so that a failure says where.
    type CleanUp = { records: string; fields: Record<string, unknown>; run: () => Promise<CleanUpOutcome> };
    const cleanUps: CleanUp[] = [
      {
        records: "old deprecated-call records",
        fields: { cleanUp: "deprecated-calls" },
        run: () => deleteOldDeprecatedCalls(createDatabase(env.DB), now, undefined, budget),
      },
    ];
    const idempotency = "expired idempotency records";
    try {
      const segments = await segmentsToClean(segmentLayout(env), now, budget);
      for (const { position, db } of segments) {
        const several = segments.length > 1;
        cleanUps.push({
          records: several ? `${idempotency} in segment ${position}` : idempotency,
          fields: { cleanUp: "idempotency-records", ...(several && { segment: position }) },
          run: () => deleteExpiredIdempotencyKeys(db, now, undefined, budget),
        });
      }
    } catch (error) {
      cleanUps.push({
        records: idempotency,
        fields: { cleanUp: "idempotency-records" },
        run: () => Promise.reject(error),
      });
    }
    const failed: string[] = [];
    await Promise.all(
      cleanUps.map(async ({ records, fields, run }) => {
        try {
          const outcome = await run();
          console.log(JSON.stringify({ level: "info", message: `the clean-up of ${records}`, ...fields, ...outcome }));
        } catch (error) {
          failed.push(records);
          const cause = messagesOf(error).at(-1);
          console.error(
            JSON.stringify({ level: "error", message: `the clean-up of ${records} failed`, ...fields, cause }),
          );
        }
      }),
    );
    if (failed.length > 0) throw new Error(`clean-ups failed: ${failed.join(", ")}`);
  },
} satisfies ExportedHandler<CloudflareBindings>;
