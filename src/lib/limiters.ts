// The Workers rate-limit bindings as every door counts with them: the API's per-key limit, and
// the throttle on unknown credentials that the API and the sign-in Worker share. Free of Hono,
// so that the sign-in Worker's bundle carries no more than this.
import { type FaultContext, logDependencyFault, withDeadline } from "./faults";

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
/** The limiters of an environment, as bound (or, by misconfiguration, not). */
export type Limiters = Partial<Record<LimiterName, RateLimit>>;

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
 * Counts one request against `key`. A limiter that throws or hangs fails open: the
 * request goes on, and the fault is logged. A limiter protects the service from
 * excess; it is no reason to refuse clients while it is down itself.
 */
export const isWithinLimit = async (
  limiters: Limiters,
  name: LimiterName,
  key: string,
  faults: FaultContext,
): Promise<boolean> => {
  const limiter = limiters[name];
  if (typeof limiter?.limit !== "function") return withoutBinding(name, key);
  try {
    const { success } = await withDeadline(limiter.limit({ key }), LIMITER_DEADLINE_MS, name);
    return success;
  } catch (error) {
    logDependencyFault(faults, name, error, "failed open: not counted");
    return true;
  }
};
