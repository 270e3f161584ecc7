// What both doors (HTTP's routes, MCP's tools) hand an operation, read from the request
// once: the session, the caller its door admitted, the clock, the settings.
import type { Context } from "hono";
import type { OperationContext } from "../core/operation";
import type { AppEnv } from "../env";

export const operationContext = (c: Context<AppEnv>): OperationContext => ({
  db: c.get("db"),
  caller: c.get("apiKey"),
  now: Date.now(),
  env: c.env,
  waitUntil: (work) => c.executionCtx.waitUntil(work),
  requestId: c.get("requestId"),
});
