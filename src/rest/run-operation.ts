// How the HTTP door runs an operation: its scope gate ahead of every rule on the input, and
// its refusal thrown for the one error handler (src/http/errors.ts) to answer.
import { createMiddleware } from "hono/factory";
import { type Operation, scopeRefusal } from "../core/operation";
import type { Refusal } from "../core/refusal";
import type { AppEnv } from "../env";

/** An operation's value, or its refusal thrown. */
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
