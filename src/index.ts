import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { apiCors, DOCUMENT_PATH, documentCors } from "./cors";
import { createDatabase } from "./db/client";
import { deleteExpiredIdempotencyKeys } from "./db/pets";
import { deleteOldDeprecatedCalls } from "./deprecated-usage";
import { markDeprecatedOperations } from "./deprecation";
import type { AppEnv } from "./env";
import { handleError, handleMethodNotAllowed, handleNotFound } from "./errors";
import { messagesOf } from "./faults";
import { requestLog } from "./request-log";
import { noStore } from "./response-headers";
import { documentationRoutes } from "./routes/documentation";
import { petRoutes } from "./routes/pets";

export const app = new Hono<AppEnv>();

app.use(requestLog);
// Outside methodNotAllowed, so that its 405s carry these headers too. "/v1/pets/*"
// matches /v1/pets itself and every path under it, unknown ones included.
app.use("/v1/pets/*", noStore);
markDeprecatedOperations(app);
// Before the 405 handling (a preflight is an OPTIONS) and before authentication.
app.use("/v1/*", apiCors(app));
app.use(DOCUMENT_PATH, documentCors);
app.use(methodNotAllowed({ app, onMethodNotAllowed: handleMethodNotAllowed }));
app.route("/v1", documentationRoutes);
const routes = app.route("/v1/pets", petRoutes);
app.notFound(handleNotFound);
app.onError(handleError);

/** The API's routes and their types, for a typed client: `hc<AppType>(baseUrl)`. */
export type AppType = typeof routes;

export default {
  fetch: app.fetch,
  /**
   * The hourly cron (wrangler.toml): idempotency records live 24 hours, usage records
   * DEPRECATED_USAGE_RETENTION_DAYS. Each clean-up runs whatever the others do; each
   * failure is logged, and the run fails if any did.
   */
  async scheduled(controller, env) {
    const db = createDatabase(env.DB);
    const cleanUps: [string, () => Promise<unknown>][] = [
      ["expired idempotency records", () => deleteExpiredIdempotencyKeys(db, controller.scheduledTime)],
      ["old deprecated-call records", () => deleteOldDeprecatedCalls(db, controller.scheduledTime)],
    ];
    const failed: string[] = [];
    await Promise.all(
      cleanUps.map(async ([records, cleanUp]) => {
        try {
          await cleanUp();
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
