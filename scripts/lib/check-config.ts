// What a deployed environment of wrangler.toml must give the Worker, checked before a
// deploy or its dry run (scripts/deploy.ts, so `npm run check:deploy` too): every
// binding, var and secret the Worker reads, and each limiter at the limits that the
// docs state (DEPLOYED_LIMITS). A missing one would not fail the deploy; it would switch
// something off at run time.

import { DEPLOYED_LIMITS } from "../../src/http/rate-limit";
import { MIN_SECRET_BYTES } from "../../src/pets/cursor";

/** What src/ reads of its environment. */
export const WORKER_NEEDS = {
  d1_databases: ["DB"],
  kv_namespaces: ["API_KEYS"],
  ratelimits: Object.keys(DEPLOYED_LIMITS) as (keyof typeof DEPLOYED_LIMITS)[],
  vars: ["ACCESS_LOG", "ALLOWED_ORIGINS", "GET_PET_BROWNOUTS", "RATE_LIMIT_QUOTA"],
  secrets: ["CURSOR_SECRET"],
};

/** An environment as wrangler resolves it (unstable_readConfig), the parts checked here. */
export type EnvironmentConfig = {
  d1_databases: { binding: string }[];
  kv_namespaces: { binding: string }[];
  ratelimits: { name: string; simple: { limit: number; period: number } }[];
  vars: Record<string, unknown>;
  secrets?: { required?: string[] };
};

/** What the environment `env` lacks or sets otherwise; empty when it is complete. */
export const configProblems = (config: EnvironmentConfig, env: string): string[] => {
  const lacking = (kind: string, needed: string[], given: string[]) =>
    needed.filter((name) => !given.includes(name)).map((name) => `[env.${env}] has no ${kind} ${name}`);
  const problems = [
    ...lacking(
      "D1 binding",
      WORKER_NEEDS.d1_databases,
      config.d1_databases.map(({ binding }) => binding),
    ),
    ...lacking(
      "KV binding",
      WORKER_NEEDS.kv_namespaces,
      config.kv_namespaces.map(({ binding }) => binding),
    ),
    ...lacking(
      "rate limiter",
      WORKER_NEEDS.ratelimits,
      config.ratelimits.map(({ name }) => name),
    ),
    ...lacking("var", WORKER_NEEDS.vars, Object.keys(config.vars)),
    ...lacking("required secret", WORKER_NEEDS.secrets, config.secrets?.required ?? []),
  ];
  for (const { name, simple } of config.ratelimits) {
    const stated = DEPLOYED_LIMITS[name as keyof typeof DEPLOYED_LIMITS];
    if (stated && (simple.limit !== stated.limit || simple.period !== stated.period)) {
      problems.push(
        `[env.${env}] limits ${name} to ${simple.limit} per ${simple.period} s, not ${stated.limit} per ${stated.period} s as the docs state`,
      );
    }
  }
  // RateLimit-Policy states the quota from this var, as the binding's limit cannot be read.
  const perKey = config.ratelimits.find(({ name }) => name === "RATE_LIMITER");
  const quota = config.vars.RATE_LIMIT_QUOTA;
  if (perKey && quota !== undefined && quota !== String(perKey.simple.limit)) {
    problems.push(
      `[env.${env}] states RATE_LIMIT_QUOTA ${String(quota)}, not RATE_LIMITER's limit ${perKey.simple.limit}`,
    );
  }
  return problems;
};

/**
 * The cursor secrets a deploy is given in its environment (CURSOR_SECRET goes up with it;
 * CURSOR_SECRET_PREVIOUS is put with `wrangler secret put`, and checked here when given):
 * what is shorter than MIN_SECRET_BYTES is refused, so no Worker runs with it.
 */
export const shortSecrets = (environment: Record<string, string | undefined>): string[] =>
  ["CURSOR_SECRET", "CURSOR_SECRET_PREVIOUS"]
    .filter((name) => {
      const given = environment[name];
      // An empty CURSOR_SECRET_PREVIOUS means no rotation under way.
      if (given === undefined || (given === "" && name === "CURSOR_SECRET_PREVIOUS")) return false;
      return new TextEncoder().encode(given).length < MIN_SECRET_BYTES;
    })
    .map((name) => `${name} in the environment is shorter than ${MIN_SECRET_BYTES} bytes`);
