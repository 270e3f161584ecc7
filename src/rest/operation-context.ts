// What every door of the Worker (HTTP's routes, MCP's tools) hands an operation, read from
// its request once: the session, the caller its door admitted, the clock, the settings.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Operation, OperationContext, Refusal } from "../core/operation";
import { scopeRefusal } from "../core/operation";
import type { AppEnv } from "../env";

export const operationContext = (c: Context<AppEnv>): OperationContext => ({
  db: c.get("db"),
  caller: c.get("apiKey"),
  now: Date.now(),
  env: c.env,
  waitUntil: (work) => c.executionCtx.waitUntil(work),
  requestId: c.get("requestId"),
});

/** An operation's value, or its refusal thrown, for the one error handler to answer. */
export const valueOrRefusal = <Value>(outcome: Value | Refusal): Value => {
  if (outcome instanceof Error) throw outcome;
  return outcome;
};

/** The operation's scope, checked before its door checks the input: 403 before any 400. */
export const allowedBy = (operation: Operation<never, unknown>) =>
  createMiddleware<AppEnv>((c, next) => {
    const refused = scopeRefusal(c.get("apiKey"), operation.scope);
    if (refused) throw refused;
    return next();
  });
