import type { Context } from "hono";
import { Refusal } from "../core/refusal";
import type { AppEnv } from "../env";
import { RATE_LIMIT_PERIOD_S } from "../lib/limiters";
import { declareHeaders } from "./answer-headers";
import { type HeaderPart, headerPart } from "./header-parts";

/** The IETF httpapi draft's header of the policy a key's answers are under (draft-ietf-httpapi-ratelimit-headers). */
export const RATE_LIMIT_POLICY_HEADER = "RateLimit-Policy";
/** RATE_LIMIT_QUOTA as the policy states it: a positive count, bounded so that the header's length is. */
export const QUOTA_SHAPE = /^[1-9]\d{0,8}$/;
/** RATE_LIMITER's policy: `quota` requests (RATE_LIMIT_QUOTA) per key in each window of RATE_LIMIT_PERIOD_S. */
export const rateLimitPolicy = (quota: string) => `"per-key";q=${quota};w=${RATE_LIMIT_PERIOD_S}`;

/** The answer to a key past RATE_LIMITER's limit: 429 with Retry-After, one window. */
export const rateLimited = () =>
  new Refusal(
    "rate_limited",
    `Too many requests for this API key; retry in ${RATE_LIMIT_PERIOD_S} seconds.`,
    RATE_LIMIT_PERIOD_S,
  );

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

/** RATE_LIMIT_QUOTA's policy, for the answer of every counted call. */
export const declareRateLimitPolicy = (c: Context<AppEnv>) => {
  const policy = policyHeader(c.env.RATE_LIMIT_QUOTA);
  if (policy) declareHeaders(c, policy);
};
