// What a deployed environment of wrangler.toml must give the Worker, checked before a
// deploy or its dry run (scripts/deploy.ts, so `npm run check:deploy` too): every
// binding, var and secret the Worker reads, and each limiter at the limits that the
// docs state (DEPLOYED_LIMITS). A missing one would not fail the deploy; it would switch
// something off at run time.

import { MIN_SECRET_BYTES } from "../../src/core/cursor";
import { segmentBinding } from "../../src/db/segments";
import { DEPLOYED_LIMITS } from "../../src/lib/limiters";

/** What src/ reads of its environment. */
export const WORKER_NEEDS = {
  d1_databases: ["DB"],
  kv_namespaces: ["API_KEYS"],
  services: ["AUTH"],
  ratelimits: Object.keys(DEPLOYED_LIMITS) as (keyof typeof DEPLOYED_LIMITS)[],
  vars: ["ACCESS_LOG", "ALLOWED_ORIGINS", "GET_PET_BROWNOUTS", "PET_SEGMENTS", "RATE_LIMIT_QUOTA"],
  secrets: ["CURSOR_SECRET"],
};

/** An environment as wrangler resolves it (unstable_readConfig), the parts checked here. */
export type EnvironmentConfig = {
  name?: string;
  d1_databases: { binding: string; database_id?: string; database_name?: string }[];
  kv_namespaces: { binding: string; id?: string }[];
  services?: { binding: string; service: string }[];
  ratelimits: { name: string; namespace_id?: string; simple: { limit: number; period: number } }[];
  vars: Record<string, unknown>;
  secrets?: { required?: string[] };
};

/** The segments of pets `config` lists (PET_SEGMENTS), in order. */
export const listedSegments = (config: EnvironmentConfig): string[] =>
  String(config.vars.PET_SEGMENTS ?? "DB")
    .trim()
    .split(/\s+/);

/**
 * What is wrong with the segments of pets `env` lists: they must be DB, PETS_1, PETS_2 ... in
 * the order of their ranges, the open one last, each a D1 binding of its own database, and
 * every PETS_<n> binding listed (`npm run segment:open` binds and lists one in turn).
 */
const segmentProblems = (config: EnvironmentConfig, env: string): string[] => {
  const listed = listedSegments(config);
  const problems: string[] = [];
  listed.forEach((binding, position) => {
    if (binding !== segmentBinding(position)) {
      problems.push(
        `[env.${env}] lists ${binding} as segment ${position} in PET_SEGMENTS, not ${segmentBinding(position)}`,
      );
    }
  });
  const bound = config.d1_databases.filter(({ binding }) => binding === "DB" || /^PETS_\d+$/.test(binding));
  for (const { binding } of bound) {
    if (!listed.includes(binding)) problems.push(`[env.${env}] binds ${binding} but PET_SEGMENTS does not list it`);
  }
  // DB's absence is said above, with every binding the Worker needs.
  for (const binding of listed.filter((name) => name !== "DB")) {
    if (!bound.some((database) => database.binding === binding)) {
      problems.push(`[env.${env}] lists ${binding} in PET_SEGMENTS but binds no D1 database to it`);
    }
  }
  const ids = bound.map(({ database_id, database_name }) => database_id || database_name).filter(Boolean);
  if (new Set(ids).size !== ids.length) problems.push(`[env.${env}] binds two segments to one database`);
  return problems;
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
      "service binding",
      WORKER_NEEDS.services,
      (config.services ?? []).map(({ binding }) => binding),
    ),
    ...lacking(
      "rate limiter",
      WORKER_NEEDS.ratelimits,
      config.ratelimits.map(({ name }) => name),
    ),
    ...lacking("var", WORKER_NEEDS.vars, Object.keys(config.vars)),
    ...lacking("required secret", WORKER_NEEDS.secrets, config.secrets?.required ?? []),
    ...segmentProblems(config, env),
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

/**
 * What the sign-in Worker's environment `env` (wrangler.auth.toml) lacks, or sets apart from
 * the API's: the API's AUTH binding names it; it reads the API's own API_KEYS and counts on
 * its AUTH_FAILURE_LIMITER (the same namespaces); and its grants and tokens are in OAUTH_KV,
 * a namespace of its own.
 */
export const signInConfigProblems = (api: EnvironmentConfig, signIn: EnvironmentConfig, env: string): string[] => {
  const problems: string[] = [];
  const kv = (config: EnvironmentConfig, binding: string) =>
    config.kv_namespaces.find((namespace) => namespace.binding === binding)?.id;
  const named = api.services?.find(({ binding }) => binding === "AUTH")?.service;
  if (named !== undefined && named !== signIn.name) {
    problems.push(`[env.${env}] binds AUTH to ${named}, not the sign-in Worker ${String(signIn.name)}`);
  }
  // Without an id in either file, the deploy gives both one namespace (./provisioning.ts).
  const keys = [kv(signIn, "API_KEYS"), kv(api, "API_KEYS")];
  if (!signIn.kv_namespaces.some(({ binding }) => binding === "API_KEYS")) {
    problems.push(`[env.${env}] of wrangler.auth.toml has no KV binding API_KEYS`);
  } else if (keys.every(Boolean) && keys[0] !== keys[1]) {
    problems.push(`[env.${env}] of wrangler.auth.toml reads another API_KEYS namespace than the API's`);
  }
  const oauth = signIn.kv_namespaces.find(({ binding }) => binding === "OAUTH_KV");
  if (oauth === undefined) problems.push(`[env.${env}] of wrangler.auth.toml has no KV binding OAUTH_KV`);
  else if (oauth.id && api.kv_namespaces.some(({ id }) => id === oauth.id)) {
    problems.push(`[env.${env}] of wrangler.auth.toml keeps OAUTH_KV in a namespace of the API's`);
  }
  const limiter = (config: EnvironmentConfig) =>
    config.ratelimits.find(({ name }) => name === "AUTH_FAILURE_LIMITER")?.namespace_id;
  if (limiter(signIn) === undefined || limiter(signIn) !== limiter(api)) {
    problems.push(
      `[env.${env}] of wrangler.auth.toml counts failed sign-ins apart from the API's AUTH_FAILURE_LIMITER`,
    );
  }
  return problems;
};
