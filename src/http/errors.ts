import { DrizzleQueryError } from "drizzle-orm/errors";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { routePath } from "hono/route";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ERROR_STATUS, type ErrorCode } from "../core/error-codes";
import { Refusal } from "../core/refusal";
import type { AppEnv } from "../env";
import { excerpt } from "../lib/display-text";
import type { ErrorBody } from "../schemas";
import { jsonAnswer } from "./json-answer";

declare module "hono" {
  interface ContextVariableMap {
    /** The code of an error answer, for the log line: every error body is written here. */
    errorCode: ErrorCode;
  }
}

const CODE_BY_STATUS = new Map<number, ErrorCode>(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]),
);

/** A refusal of the HTTP door, with the headers that only HTTP has (a challenge, Allow). */
export class ApiError extends Refusal {
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(code, message);
    this.headers = headers;
  }
}

/** A refusal as HTTP answers it: its status, the Error body, Retry-After when it says when to come back. */
export const errorResponse = (c: Context<AppEnv>, refusal: Refusal) => {
  c.set("errorCode", refusal.code);
  const body: ErrorBody = { code: refusal.code, message: refusal.message, status: refusal.status };
  const headers = refusal instanceof ApiError ? { ...refusal.headers } : {};
  if (refusal.retryAfter !== undefined) headers["Retry-After"] = String(refusal.retryAfter);
  return jsonAnswer(c, body, refusal.status as ContentfulStatusCode, headers);
};

/**
 * What the log keeps of a fault: the error, the SQL of a failed query and where it
 * happened, but not the query's bound values (pet names are user data), which Drizzle
 * puts in its message and so in the first line of the stack.
 */
const faultDetails = (error: Error) => {
  const frames = error.stack
    ?.split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .join("\n");
  const cause = error.cause === undefined ? undefined : String(error.cause);
  if (error instanceof DrizzleQueryError) return { error: "DrizzleQueryError", query: error.query, cause, frames };
  return { error: String(error), cause, frames };
};

/**
 * Hono's own exceptions are mapped onto our codes; anything else is a fault (the operations
 * answer D1's transient faults themselves: src/core/operation.ts), logged with the request
 * id and route, and answered with a body that reveals nothing of it.
 */
export const toRefusal = (error: Error, c: Context<AppEnv>): Refusal => {
  if (error instanceof Refusal) return error;
  const code = error instanceof HTTPException ? CODE_BY_STATUS.get(error.status) : undefined;
  if (code && code !== "internal_error") return new ApiError(code, error.message);
  console.error(
    JSON.stringify({
      level: "error",
      requestId: c.get("requestId"),
      message: "unhandled error",
      method: c.req.method,
      route: routePath(c, -1),
      ...faultDetails(error),
    }),
  );
  return new ApiError("internal_error", "The server failed to handle the request.");
};

export const handleError: ErrorHandler<AppEnv> = (error, c) => errorResponse(c, toRefusal(error, c));

export const handleNotFound: NotFoundHandler<AppEnv> = (c) =>
  errorResponse(c, new ApiError("not_found", `No route matches ${c.req.method} ${excerpt(c.req.path, 64)}.`));

export const handleMethodNotAllowed = (c: Context<AppEnv>, methods: string[]) =>
  errorResponse(
    c,
    new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${excerpt(c.req.path, 64)}.`, {
      Allow: methods.join(", "),
    }),
  );
