import { describe, expect, it } from "vitest";
import { configProblems, type EnvironmentConfig, shortSecrets } from "../../../scripts/lib/check-config";
import { DEPLOYED_ENVIRONMENTS } from "../../../scripts/lib/target";
import { workerConfig } from "../../../scripts/lib/wrangler";

// The check that scripts/deploy.ts makes of each deployed environment before a deploy or
// its dry run: wrangler.toml passes it, and each thing the Worker needs, taken away in
// turn from the environment as wrangler resolves it, is named.

/**
 * What the Worker reads of its environment, as docs/operations.md lists it: written here
 * rather than taken from the check, so that a check that forgets one fails this test.
 */
const WORKER_NEEDS = {
  d1_databases: ["DB"],
  kv_namespaces: ["API_KEYS"],
  services: ["AUTH"],
  ratelimits: ["RATE_LIMITER", "AUTH_FAILURE_LIMITER"],
  vars: ["ACCESS_LOG", "ALLOWED_ORIGINS", "GET_PET_BROWNOUTS", "PET_SEGMENTS", "RATE_LIMIT_QUOTA"],
  secrets: ["CURSOR_SECRET"],
};

describe.each(DEPLOYED_ENVIRONMENTS)("[env.%s]", (env) => {
  const resolved = async () => (await workerConfig(env)) as EnvironmentConfig;

  it("gives the Worker everything it reads, at the limits the docs state", async () => {
    expect(configProblems(await resolved(), env)).toEqual([]);
  });

  it("is refused without any one binding, var or required secret", async () => {
    const config = await resolved();
    const removals: [string, (copy: EnvironmentConfig) => void][] = [
      ...WORKER_NEEDS.d1_databases.map((name): [string, (copy: EnvironmentConfig) => void] => [
        `D1 binding ${name}`,
        (copy) => {
          copy.d1_databases = copy.d1_databases.filter(({ binding }) => binding !== name);
        },
      ]),
      ...WORKER_NEEDS.kv_namespaces.map((name): [string, (copy: EnvironmentConfig) => void] => [
        `KV binding ${name}`,
        (copy) => {
          copy.kv_namespaces = copy.kv_namespaces.filter(({ binding }) => binding !== name);
        },
      ]),
      ...WORKER_NEEDS.services.map((name): [string, (copy: EnvironmentConfig) => void] => [
        `service binding ${name}`,
        (copy) => {
          copy.services = (copy.services ?? []).filter(({ binding }) => binding !== name);
        },
      ]),
      ...WORKER_NEEDS.ratelimits.map((name): [string, (copy: EnvironmentConfig) => void] => [
        `rate limiter ${name}`,
        (copy) => {
          copy.ratelimits = copy.ratelimits.filter((limiter) => limiter.name !== name);
        },
      ]),
      ...WORKER_NEEDS.vars.map((name): [string, (copy: EnvironmentConfig) => void] => [
        `var ${name}`,
        (copy) => {
          delete copy.vars[name];
        },
      ]),
      ...WORKER_NEEDS.secrets.map((name): [string, (copy: EnvironmentConfig) => void] => [
        `required secret ${name}`,
        (copy) => {
          copy.secrets = { required: (copy.secrets?.required ?? []).filter((secret) => secret !== name) };
        },
      ]),
    ];
    for (const [missing, remove] of removals) {
      const copy = structuredClone(config);
      remove(copy);
      expect(configProblems(copy, env), missing).toEqual([`[env.${env}] has no ${missing}`]);
    }
  });

  it("is refused with a RATE_LIMIT_QUOTA other than RATE_LIMITER's limit, which RateLimit-Policy states", async () => {
    const copy = structuredClone(await resolved());
    copy.vars.RATE_LIMIT_QUOTA = "601";
    expect(configProblems(copy, env)).toEqual([
      `[env.${env}] states RATE_LIMIT_QUOTA 601, not RATE_LIMITER's limit 600`,
    ]);
  });

  it("lists its segments of pets as DB, PETS_1 ... in order, the open one last, each bound to a database of its own", async () => {
    const withSegments = (listed: string, bindings: [string, string][]) => {
      const copy = structuredClone(config);
      copy.vars.PET_SEGMENTS = listed;
      copy.d1_databases = bindings.map(([binding, database_id]) => ({ binding, database_id }));
      return configProblems(copy, env);
    };
    const config = await resolved();
    const three: [string, string][] = [
      ["DB", "a"],
      ["PETS_1", "b"],
      ["PETS_2", "c"],
    ];
    expect(withSegments("DB PETS_1 PETS_2", three)).toEqual([]);
    expect(withSegments("DB PETS_2 PETS_1", three)).toEqual([
      `[env.${env}] lists PETS_2 as segment 1 in PET_SEGMENTS, not PETS_1`,
      `[env.${env}] lists PETS_1 as segment 2 in PET_SEGMENTS, not PETS_2`,
    ]);
    expect(withSegments("DB PETS_1", three)).toEqual([`[env.${env}] binds PETS_2 but PET_SEGMENTS does not list it`]);
    expect(withSegments("DB PETS_1 PETS_2", three.slice(0, 2))).toEqual([
      `[env.${env}] lists PETS_2 in PET_SEGMENTS but binds no D1 database to it`,
    ]);
    expect(
      withSegments("DB PETS_1", [
        ["DB", "a"],
        ["PETS_1", "a"],
      ]),
    ).toEqual([`[env.${env}] binds two segments to one database`]);
  });

  it("is refused with a limiter's period or limit other than the docs state", async () => {
    for (const field of ["period", "limit"] as const) {
      const copy = structuredClone(await resolved());
      const limiter = copy.ratelimits.find(({ name }) => name === "AUTH_FAILURE_LIMITER");
      if (!limiter) throw new Error("no AUTH_FAILURE_LIMITER");
      limiter.simple[field] *= 2;
      expect(configProblems(copy, env)).toEqual([
        expect.stringMatching(/^\[env\.\w+\] limits AUTH_FAILURE_LIMITER to/),
      ]);
    }
  });
});

describe("the cursor secrets given to a deploy", () => {
  it("refuses either one shorter than 32 bytes; an empty CURSOR_SECRET_PREVIOUS is no rotation", () => {
    const long = "a-cursor-secret-of-at-least-32-bytes";
    expect(shortSecrets({ CURSOR_SECRET: long, CURSOR_SECRET_PREVIOUS: "" })).toEqual([]);
    expect(shortSecrets({})).toEqual([]);
    expect(shortSecrets({ CURSOR_SECRET: long, CURSOR_SECRET_PREVIOUS: "short" })).toEqual([
      "CURSOR_SECRET_PREVIOUS in the environment is shorter than 32 bytes",
    ]);
    expect(shortSecrets({ CURSOR_SECRET: "" })).toEqual(["CURSOR_SECRET in the environment is shorter than 32 bytes"]);
  });
});
