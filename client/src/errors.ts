import type { ErrorBody } from "./wire.js";

/**
 * A code the API's Error bodies carry; `unknown_code` for an Error body whose code the API
 * does not send (a proxy's, or a newer API's); or, for an answer that is not the API's,
 * `unexpected_response` (a proxy's page, a redirect, a body of the wrong shape, a page out
 * of order, a malformed link) or `response_too_large` (over `maxResponseBytes`).
 */
export type ErrorCode = ErrorBody["code"] | "unknown_code" | "unexpected_response" | "response_too_large";

/** Anything shaped like an API key, whole or cut short: what a proxy may echo of Authorization. */
const KEY_LIKE = /ps_(?:live|test)_[0-9A-Za-z]*/g;
/** The longest text the client keeps of what it was sent, as the API bounds its own messages. */
const MAX_KEPT_CHARACTERS = 1024;

/** A text the client was sent, as it keeps it: no key in it, and no longer than MAX_KEPT_CHARACTERS. */
export const scrub = (text: string): string => {
  const redacted = text.replace(KEY_LIKE, "ps_[redacted]");
  return redacted.length <= MAX_KEPT_CHARACTERS ? redacted : `${redacted.slice(0, MAX_KEPT_CHARACTERS)}…`;
};

/** A non-2xx answer, or one that is not the API's: with its Error body when it has one. */
export class ApiError extends Error {
  override name = "ApiError";
  /** The Idempotency-Key of the createPet that failed: call it again with this key to get its pet, never a second. */
  declare idempotencyKey?: string;
  /** The answer's X-Request-Id, kept as any text it was sent is: quote it when you report a problem. */
  readonly requestId: string | undefined;
  constructor(
    /** The HTTP status. */
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    requestId: string | undefined,
    /** Seconds to wait before retrying, when the answer said (Retry-After). */
    readonly retryAfter: number | undefined,
  ) {
    super(scrub(message));
    // A proxy may echo any header into it, Authorization included.
    this.requestId = requestId === undefined ? undefined : scrub(requestId);
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
