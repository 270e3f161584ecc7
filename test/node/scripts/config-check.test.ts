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
  ratelimits: ["RATE_LIMITER", "AUTH_FAILURE_LIMITER"],
  vars: ["ACCESS_LOG", "ALLOWED_ORIGINS", "GET_PET_BROWNOUTS", "RATE_LIMIT_QUOTA"],
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
