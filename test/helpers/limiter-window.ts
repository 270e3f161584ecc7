// The local rate limiters count in fixed windows of the clock: Miniflare's simulator
// (wrangler 4.155) puts a call in window floor(now / period), on this machine's clock,
// so every key's count starts again at each whole minute. A test that counts calls
// within one window must therefore know that its calls fell in one.

const WINDOW_MS = 60_000;
const windowAt = (instant: number) => Math.floor(instant / WINDOW_MS);

/**
 * With STRADDLE_LIMITER_WINDOW=1 every first run is thrown away as if it had crossed a
 * window, so that a test shows that the run after one holds on its own (it does not find
 * the first run's keys cached, or its address counted).
 */
const straddling = () => process.env.STRADDLE_LIMITER_WINDOW === "1";

/**
 * Runs `count` until one run starts and ends in the same limiter window, and returns
 * what that run returned. A run that crossed a boundary is thrown away and followed by
 * another, which starts just after the boundary and so has a whole window: `run` (0,
 * then 1) lets it count from addresses or keys that the first run did not touch. The
 * runs' requests are all sent between the two readings of the clock, so the limiter
 * read the clock within them.
 */
export const inOneLimiterWindow = async <T>(count: (run: number) => Promise<T>): Promise<T> => {
  const lastRun = straddling() ? 2 : 1;
  for (let run = 0; ; run++) {
    const started = windowAt(Date.now());
    const result = await count(run);
    const crossed = windowAt(Date.now()) !== started || (run === 0 && straddling());
    if (!crossed) return result;
    if (run === lastRun)
      throw new Error("two runs in a row crossed a limiter window: a run must take well under a minute");
  }
};
