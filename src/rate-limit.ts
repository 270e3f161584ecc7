import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";

/** The `simple.period` of every [[ratelimits]] binding in wrangler.toml. */
export const RATE_LIMIT_PERIOD_S = 60;

/**
 * Per API key, after authentication, so that one noisy key cannot starve the
 * others. The binding counts in the colo, without a storage round trip.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const { success } = await c.env.RATE_LIMITER.limit({ key: c.var.apiKey.hash });
  if (!success) {
    throw new ApiError("rate_limited", `Too many requests for this API key; retry in ${RATE_LIMIT_PERIOD_S} seconds.`, {
      "Retry-After": String(RATE_LIMIT_PERIOD_S),
    });
  }
  await next();
});
