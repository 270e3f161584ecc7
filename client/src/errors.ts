import type { ErrorBody } from "./wire.js";

/**
 * A code the API's Error bodies carry; or, for an answer that is not the API's,
 * `unexpected_response` (a proxy's page, a redirect, a body of the wrong shape, a cursor
 * seen before) or `response_too_large` (over `maxResponseBytes`).
 */
export type ErrorCode = ErrorBody["code"] | "unexpected_response" | "response_too_large";

/** A non-2xx answer, or one that is not the API's: with its Error body when it has one. */
export class ApiError extends Error {
  override name = "ApiError";
  /** The Idempotency-Key of the createPet that failed: call it again with this key to get its pet, never a second. */
  declare idempotencyKey?: string;
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
  /** As ApiError's: the createPet's key, to call it again with. */
  declare idempotencyKey?: string;
}

/** No answer within `timeoutMs`. */
export class TimeoutError extends Error {
  override name = "TimeoutError";
  /** As ApiError's: the createPet's key, to call it again with. */
  declare idempotencyKey?: string;
}
