import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { AppEnv } from "../env";
import { declareHeaders, declareOwnHeader, finishAnswer, honourHeaderCalls } from "./answer-headers";
import { headerPart } from "./header-parts";

declare module "hono" {
  interface ContextVariableMap {
    requestId: string;
    /**
     * Set by a door whose HTTP status is not its operation's (one that answers an operation's
     * refusal inside a 200): the operation's status, for the line's `status` (the HTTP one goes
     * to `httpStatus`), and the fields that name what was called.
     */
    operationOutcome: { status: number; fields: Record<string, string> };
  }
}

// A client's own request id is kept when it is a plain token, so that its logs and
// ours can be joined; anything else is replaced rather than echoed into our logs.
export const REQUEST_ID_MAX_LENGTH = 128;
export const SANE_REQUEST_ID = new RegExp(`^[\\w.:=+-]{1,${REQUEST_ID_MAX_LENGTH}}$`);

/** What a fault line names of the request (src/lib/faults.ts): its id, and D1's retries so far. */
export const faultContext = (c: Context<AppEnv>) => ({
  requestId: c.get("requestId"),
  d1Retries: c.get("db")?.retries,
});

/** Every answer tells a browser not to guess its type from its content. */
const NO_SNIFFING = headerPart({ "X-Content-Type-Options": "nosniff" });

/**
 * Outermost middleware: gives every request an id, returns it in X-Request-Id, sees that
 * every answer carries the headers declared for it (./answer-headers.ts) and,
 * where ACCESS_LOG is "json" (staging, production), writes one JSON log line per
 * request (never the key, only its label; never the query string). Its fields are
 * flat, so that Workers Logs can filter and group by each; the README's "Reading the
 * logs" queries them.
 */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header("X-Request-Id");
  const requestId = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", requestId);
  honourHeaderCalls(c);
  declareOwnHeader(c, "X-Request-Id", requestId);
  declareHeaders(c, NO_SNIFFING);
  const started = Date.now();
  await next();
  finishAnswer(c);
  if (c.env.ACCESS_LOG !== "json") return;
  // Absent when the request never opened a D1 session (a cache hit, or refused before).
  const db = c.get("db");
  const d1 = db?.usage.roundTrips ? db.usage : undefined;
  const outcome = c.get("operationOutcome");
  console.log(
    JSON.stringify({
      level: "info",
      requestId,
      method: c.req.method,
      route: routePath(c, -1),
      ...outcome?.fields,
      path: c.req.path,
      status: outcome?.status ?? c.res.status,
      httpStatus: outcome && c.res.status,
      durationMs: Date.now() - started,
      key: c.get("apiKey")?.label,
      errorCode: c.get("errorCode"),
      isolateCache: c.get("isolateCache"),
      d1RoundTrips: d1?.roundTrips,
      d1RowsRead: d1?.rowsRead,
      d1RowsWritten: d1?.rowsWritten,
      d1DurationMs: d1?.durationMs,
      d1ServedByPrimary: d1?.servedByPrimary,
      // D1 queries repeated after a transient fault (src/lib/faults.ts); absent before authentication.
      d1Retries: db?.retries,
    }),
  );
});
