import { ERROR_STATUS, type ErrorCode, UNAVAILABLE_RETRY_AFTER_S } from "./error-codes";

/**
 * What the core answers when it does not do what its caller asked: the Error body's code
 * and message, and the seconds to wait where waiting helps. Each door words it as its own
 * answer (HTTP as the status and Error body, MCP as a tool error); nothing here knows which.
 */
export class Refusal extends Error {
  readonly code: ErrorCode;
  /** Seconds to wait before trying again, where waiting helps. */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, retryAfter?: number) {
    super(message);
    this.code = code;
    this.retryAfter = retryAfter;
  }

  /** The HTTP status of the code, which every door's Error body repeats. */
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The refusal of a dependency fault: `what` names the dependency as a client knows it. */
export const unavailable = (what: string, advice = "") =>
  new Refusal(
    "unavailable",
    `${what} is unavailable for a moment; retry in ${UNAVAILABLE_RETRY_AFTER_S} seconds.${advice}`,
    UNAVAILABLE_RETRY_AFTER_S,
  );
