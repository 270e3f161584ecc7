import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { logDependencyFault, withDeadline } from "../lib/faults";
import { ApiError } from "./errors";

/** The `simple.period` of every [[ratelimits]] binding in wrangler.toml. */
export const RATE_LIMIT_PERIOD_S = 60;
/**
 * Each limiter's `simple` in a deployed environment, as docs/api.md and docs/keys.md
 * state them: scripts/lib/check-config.ts refuses a wrangler.toml that differs.
 */
export const DEPLOYED_LIMITS = {
  RATE_LIMITER: { limit: 600, period: RATE_LIMIT_PERIOD_S },
  AUTH_FAILURE_LIMITER: { limit: 60, period: RATE_LIMIT_PERIOD_S },
} as const;
/** A limiter answers from the colo's memory; one that takes longer than this is failing. */
const LIMITER_DEADLINE_MS = 1000;

type LimiterName = keyof typeof DEPLOYED_LIMITS;

/** The limiters this isolate has found unbound: a configuration error, logged once each. */
const unbound = new Set<LimiterName>();
/** Addresses counted in this isolate while AUTH_FAILURE_LIMITER is unbound; past this many, the count starts again. */
const FALLBACK_KEYS = 10_000;
let fallback = { window: -1, counts: new Map<string, number>() };

/**
 * AUTH_FAILURE_LIMITER's count when its binding is missing: in this isolate alone, per
 * key and fixed window, at the deployed limit. The throttle on guessed keys weakens to
 * one isolate's view rather than vanish.
 */
const countInIsolate = (key: string): boolean => {
  const window = Math.floor(Date.now() / (RATE_LIMIT_PERIOD_S * 1000));
  if (window !== fallback.window || fallback.counts.size >= FALLBACK_KEYS) fallback = { window, counts: new Map() };
  const count = (fallback.counts.get(key) ?? 0) + 1;
  fallback.counts.set(key, count);
  return count <= DEPLOYED_LIMITS.AUTH_FAILURE_LIMITER.limit;
};

/**
 * A limiter missing from the environment: not a fault that passes, a configuration that
 * `npm run check:deploy` refuses to ship (scripts/lib/check-config.ts). Logged at error level
 * once per isolate; RATE_LIMITER then lets requests through uncounted, AUTH_FAILURE_LIMITER
 * counts in the isolate (countInIsolate).
 */
const withoutBinding = (name: LimiterName, key: string): boolean => {
  if (!unbound.has(name)) {
    unbound.add(name);
    console.error(JSON.stringify({ level: "error", message: "limiter binding missing", dependency: name }));
  }
  return name === "AUTH_FAILURE_LIMITER" ? countInIsolate(key) : true;
};

/**
 * In place of a limiter, for a request already counted: a tool call's operation, whose /mcp
 * request was counted at the door (src/mcp/call.ts). It is not called, so no deadline is set for it.
 */
export const COUNTED_ALREADY = { limit: async () => ({ success: true }) } satisfies RateLimit;

/**
 * Counts one request against `key`. A limiter that throws or hangs fails open: the
 * request goes on, and the fault is logged. A limiter protects the service from
 * excess; it is no reason to refuse clients while it is down itself.
 */
export const isWithinLimit = async (c: Context<AppEnv>, name: LimiterName, key: string): Promise<boolean> => {
  if (c.env[name] === COUNTED_ALREADY) return true;
  if (typeof c.env[name]?.limit !== "function") return withoutBinding(name, key);
  try {
    const { success } = await withDeadline(c.env[name].limit({ key }), LIMITER_DEADLINE_MS, name);
    return success;
  } catch (error) {
    logDependencyFault(c, name, error, "failed open: not counted");
    return true;
  }
};

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

let policyOf = { quota: "", policy: "" };
/** RATE_LIMIT_QUOTA's policy header, or "" for a quota of another shape: worked out once per setting. */
const policyHeader = (quota = "") => {
  if (quota !== policyOf.quota) policyOf = { quota, policy: QUOTA_SHAPE.test(quota) ? rateLimitPolicy(quota) : "" };
  return policyOf.policy;
};

/**
 * Per API key, after authentication, so that one noisy key cannot starve the
 * others. The binding counts in the colo, without a storage round trip.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const policy = policyHeader(c.env.RATE_LIMIT_QUOTA);
  if (policy) c.header(RATE_LIMIT_POLICY_HEADER, policy);
  if (!(await isWithinLimit(c, "RATE_LIMITER", c.get("apiKey").hash))) throw rateLimited();
  await next();
});
