import type { ErrorBody } from "./wire.js";

/** A code the API's Error bodies carry, or `unexpected_response` for an answer without one. */
export type ErrorCode = ErrorBody["code"] | "unexpected_response";

/** A non-2xx answer: from the API with its Error body, or from something in front of it. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    /** The HTTP status. */
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** The answer's X-Request-Id: quote it when you report a problem. */
    readonly requestId: string | undefined,
    /** Seconds to wait before retrying, when the answer said (Retry-After). */
    readonly retryAfter: number | undefined,
  ) {
    super(message);
  }
}

/** No answer: the connection failed (DNS, refused, reset, CORS). `cause` is what fetch threw. */
export class NetworkError extends Error {
  override name = "NetworkError";
}

/** No answer within `timeoutMs`. */
export class TimeoutError extends Error {
  override name = "TimeoutError";
}
