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

const hex = (character: string) => `%${character.charCodeAt(0).toString(16).padStart(2, "0")}`;
const regexOf = (text: string) => text.replace(/[$()*+.?[\\\]^{|}/-]/g, "\\$&");

/**
 * The ways an upstream may spell `key` in what it echoes: each character as itself or
 * percent-encoded, split by up to three separators (spaces, dashes, a line break, escaped or
 * encoded); or in base64, standard or URL-safe, of any text it is in (at each of base64's three
 * alignments, the characters that come from the key alone).
 */
const spellingsOf = (key: string) => {
  const gap = "(?:[\\s.,:;/_-]|%[0-9a-f]{2}|\\\\[nrt]){0,3}";
  const spelled = [...key].map((character) => `(?:${regexOf(character)}|${hex(character)})`).join(gap);
  // base64 is of bytes: a key beyond Latin-1 is not spelled so.
  const encoded = [0, 1, 2]
    .filter(() => /^[\0-\xff]*$/.test(key))
    .map((shift) => {
      const base64 = btoa("\0".repeat(shift) + key).slice([0, 2, 3][shift], 4 * Math.floor((shift + key.length) / 3));
      return regexOf(base64).replace(/\\\+|\\\//g, (sign) => (sign === "\\+" ? "[+-]" : "[/_]"));
    });
  return new RegExp([spelled, ...encoded].join("|"), "gi");
};

/**
 * `error` with every spelling of the client's own key cut out of its message and request id
 * (a proxy may echo Authorization in either, encoded or not). What the code can hold is
 * the API's codes, never an echo.
 */
export const withoutKey = <E>(error: E, key: string): E => {
  const sent = error instanceof ApiError && key.length >= 8 && sentTexts.get(error);
  if (!sent) return error;
  const spellings = spellingsOf(key);
  // From the texts as they were sent, before they were cut short: a spelling cut in half is found whole.
  const hide = (text: string) => scrub(text.replace(spellings, "[redacted]"));
  error.message = hide(sent.message);
  if (sent.requestId !== undefined) (error as { requestId: string }).requestId = hide(sent.requestId);
  return error;
};

/** What each ApiError was sent, whole, for withoutKey: never on the error itself, where it would be read or logged. */
const sentTexts = new WeakMap<ApiError, { message: string; requestId: string | undefined }>();

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
    sentTexts.set(this, { message, requestId });
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
