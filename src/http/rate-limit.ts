import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { isWithinLimit, RATE_LIMIT_PERIOD_S } from "../lib/limiters";
import { declareHeaders, type HeaderPart, headerPart } from "./answer-headers";
import { ApiError } from "./errors";
import { faultContext } from "./request-log";

/** The IETF httpapi draft's header of the policy a key's answers are under (draft-ietf-httpapi-ratelimit-headers). */
export const RATE_LIMIT_POLICY_HEADER = "RateLimit-Policy";
/** RATE_LIMIT_QUOTA as the policy states it: a positive count, bounded so that the header's length is. */
export const QUOTA_SHAPE = /^[1-9]\d{0,8}$/;
/** RATE_LIMITER's policy: `quota` requests (RATE_LIMIT_QUOTA) per key in each window of RATE_LIMIT_PERIOD_S. */
export const rateLimitPolicy = (quota: string) => `"per-key";q=${quota};w=${RATE_LIMIT_PERIOD_S}`;

/** The answer to a key past RATE_LIMITER's limit: 429 with Retry-After, one window. */
export const rateLimited = () =>
  new ApiError("rate_limited", `Too many requests for this API key; retry in ${RATE_LIMIT_PERIOD_S} seconds.`, {
    "Retry-After": String(RATE_LIMIT_PERIOD_S),
  });

let policyOf: { quota: string; part: HeaderPart | undefined } = { quota: "", part: undefined };
/** RATE_LIMIT_QUOTA's policy header, none for a quota of another shape: worked out once per setting. */
const policyHeader = (quota = "") => {
  if (quota !== policyOf.quota) {
    const part = QUOTA_SHAPE.test(quota)
      ? headerPart({ [RATE_LIMIT_POLICY_HEADER]: rateLimitPolicy(quota) })
      : undefined;
    policyOf = { quota, part };
  }
  return policyOf.part;
};

/**
 * Per API key, after authentication, so that one noisy key cannot starve the
 * others. The binding counts in the colo, without a storage round trip.
 */
export const rateLimit = createMiddleware<AppEnv>((c, next) => {
  const policy = policyHeader(c.env.RATE_LIMIT_QUOTA);
  if (policy) declareHeaders(c, policy);
  return isWithinLimit(c.env, "RATE_LIMITER", c.get("apiKey").hash, faultContext(c)).then((within) => {
    if (!within) throw rateLimited();
    return next();
  });
});
