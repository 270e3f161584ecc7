// Faults of D1, KV and the rate limiters, which the platform documents as transient:
// D1's are told apart by their messages, and the retryable ones retried; calls that
// may hang get a deadline. src/http/errors.ts answers what is left with 503 and Retry-After
// (never 500, and never 401 for a key that may be valid).

/**
 * D1's transient errors, as its documentation lists them: worth another attempt at once
 * ("Failed to get session commit token" is how the local simulator reports a locked
 * database file on a read).
 */
const RETRYABLE_D1_ERRORS = [
  /Network connection lost/i,
  /reset because its code was updated/i,
  /storage caused object to be reset/i,
  /transient issue on remote node/i,
  /Failed to get session commit token/i,
];
/** D1's errors that ask callers to back off: answered 503 at once, not retried in the request. */
const BACK_OFF_D1_ERRORS = [
  /D1 DB is overloaded/i,
  /exceeded timeout/i,
  /database is locked|SQLITE_BUSY/i,
  // Our own deadline (D1_DEADLINE_MS): a query that hangs is not tried again in the request.
  /^D1 did not answer within/,
];

/** A D1 query or batch normally takes milliseconds; one that takes this long is failing. */
export const D1_DEADLINE_MS = 5000;

/** The messages of an error and of its causes (Drizzle wraps D1's error in its own). */
export const messagesOf = (error: unknown): string[] => {
  const messages: string[] = [];
  for (let current = error; current instanceof Error && messages.length < 8; current = current.cause) {
    messages.push(current.message);
  }
  return messages;
};

export type D1Fault = "retryable" | "back-off";

/** Whether an error is one of D1's transient faults, and which kind; undefined for anything else (a bug, a constraint). */
export const classifyD1Error = (error: unknown): D1Fault | undefined => {
  const messages = messagesOf(error);
  const matches = (patterns: RegExp[]) => messages.some((message) => patterns.some((pattern) => pattern.test(message)));
  if (matches(RETRYABLE_D1_ERRORS)) return "retryable";
  if (matches(BACK_OFF_D1_ERRORS)) return "back-off";
  return undefined;
};

/**
 * Attempts of one query at most, and the backoff between them: a retry must not outlast the
 * client's patience. Three attempts wait at most 100 then 200 ms, so the waits need no cap.
 */
export const D1_MAX_ATTEMPTS = 3;
const BACKOFF_BASE_MS = 50;

/**
 * Runs `query`, and again (up to D1_MAX_ATTEMPTS in all) after a retryable D1 error,
 * waiting a random time up to an exponentially growing cap (full jitter), so that many
 * isolates retrying at once do not arrive together. Only for a query that is safe to
 * repeat: a read, or a write whose repeat changes nothing.
 */
export const retryTransient = async <T>(query: () => Promise<T>, onRetry: () => void): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await query();
    } catch (error) {
      if (attempt >= D1_MAX_ATTEMPTS || classifyD1Error(error) !== "retryable") throw error;
      onRetry();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * BACKOFF_BASE_MS * 2 ** attempt));
    }
  }
};

/** Thrown when a call to a binding does not settle in time: the caller answers as if it had failed. */
export class DeadlineExceeded extends Error {}

/** `promise`, or a DeadlineExceeded after `ms`: a binding that hangs must not hold the request. */
export const withDeadline = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DeadlineExceeded(`${what} did not answer within ${ms} ms`)), ms);
    // Not `.finally()`, which adds two promises to every call of every binding.
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

export type Dependency = "D1" | "KV" | "RATE_LIMITER" | "AUTH_FAILURE_LIMITER" | "AUTH" | "OAUTH_KV";

/** What a fault line says of the request it happened in, where there is one. */
export type FaultContext = { requestId?: string; d1Retries?: number };

/**
 * One warn line per fault of a dependency: which one, what it said (D1's and KV's messages
 * carry no bound values or keys) and what the client got.
 */
export const logDependencyFault = (
  { requestId, d1Retries }: FaultContext,
  dependency: Dependency,
  error: unknown,
  outcome: string,
) => {
  console.warn(
    JSON.stringify({
      level: "warn",
      requestId,
      message: "dependency fault",
      dependency,
      cause: messagesOf(error).at(-1) ?? String(error),
      d1Retries,
      outcome,
    }),
  );
};
