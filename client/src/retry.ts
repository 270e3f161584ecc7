// When to try again, and how long to wait first.

/** Answers worth another attempt: the limit, and faults in front of or inside the API. */
export const RETRIED_STATUSES = [429, 502, 503, 504];

/** The first backoff step, doubled on each attempt up to MAX_BACKOFF_MS. */
const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** Full jitter: anywhere from 0 to the attempt's exponential step, so that clients spread out. */
export const backoffMs = (attempt: number): number =>
  Math.random() * Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt);

/** Retry-After (RFC 9110) in milliseconds from now, either form: seconds, or an HTTP-date. */
export const retryAfterMs = (value: string | null, now = Date.now()): number | undefined => {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort, { once: true });
  });
