import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { logDependencyFault, withDeadline } from "./faults";

/** The `simple.period` of every [[ratelimits]] binding in wrangler.toml. */
export const RATE_LIMIT_PERIOD_S = 60;
/** A limiter answers from the colo's memory; one that takes longer than this is failing. */
const LIMITER_DEADLINE_MS = 1000;

type LimiterName = "RATE_LIMITER" | "AUTH_FAILURE_LIMITER";

/**
 * Counts one request against `key`. A limiter that throws or hangs fails open: the
 * request goes on, and the fault is logged. A limiter protects the service from
 * excess; it is no reason to refuse clients while it is down itself.
 */
export const isWithinLimit = async (c: Context<AppEnv>, name: LimiterName, key: string): Promise<boolean> => {
  try {
    const { success } = await withDeadline(c.env[name].limit({ key }), LIMITER_DEADLINE_MS, name);
    return success;
  } catch (error) {
    logDependencyFault(c, name, error, "failed open: not counted");
    return true;
  }
};

/**
 * Per API key, after authentication, so that one noisy key cannot starve the
 * others. The binding counts in the colo, without a storage round trip.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  if (!(await isWithinLimit(c, "RATE_LIMITER", c.var.apiKey.hash))) {
    throw new ApiError("rate_limited", `Too many requests for this API key; retry in ${RATE_LIMIT_PERIOD_S} seconds.`, {
      "Retry-After": String(RATE_LIMIT_PERIOD_S),
    });
  }
  await next();
});
