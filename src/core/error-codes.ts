/** Every error code of the Error body, at every door, and the one HTTP status each maps to. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** How long a client is asked to wait after a 503 (the sign-in Worker's pages ask the same). */
export const UNAVAILABLE_RETRY_AFTER_S = 3;
