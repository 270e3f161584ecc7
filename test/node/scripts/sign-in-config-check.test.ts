import { describe, expect, it } from "vitest";
import { type EnvironmentConfig, signInConfigProblems } from "../../../scripts/lib/check-config";
import { DEPLOYED_ENVIRONMENTS } from "../../../scripts/lib/target";
import { SIGN_IN_CONFIG, workerConfig } from "../../../scripts/lib/wrangler";

// The check that scripts/deploy.ts makes of each deployed environment of wrangler.auth.toml,
// the sign-in Worker's, beside the API's (./config-check.test.ts): wrangler.auth.toml passes
// it, and each way it could part from the API's is named.

describe.each(DEPLOYED_ENVIRONMENTS)("[env.%s] of wrangler.auth.toml, the sign-in Worker's", (env) => {
  const both = async () => ({
    api: (await workerConfig(env)) as EnvironmentConfig,
    signIn: (await workerConfig(env, SIGN_IN_CONFIG)) as EnvironmentConfig,
  });

  it("is the Worker that the API's AUTH names, on the API's keys and throttle, with OAUTH_KV its own", async () => {
    const { api, signIn } = await both();
    expect(signInConfigProblems(api, signIn, env)).toEqual([]);
    expect(api.services).toEqual([{ binding: "AUTH", service: `petstore-auth-${env}` }]);
  });

  it("reads the API's API_KEYS namespace: the same id in both files, or none in either (the deploy then gives both one)", async () => {
    const { api, signIn } = await both();
    const withKeys = (config: EnvironmentConfig, id: string) => {
      const copy = structuredClone(config);
      const keys = copy.kv_namespaces.find(({ binding }) => binding === "API_KEYS");
      if (keys) keys.id = id;
      return copy;
    };
    expect(signIn.kv_namespaces.find(({ binding }) => binding === "API_KEYS")?.id).toBeUndefined();
    expect(signInConfigProblems(withKeys(api, "kept"), withKeys(signIn, "kept"), env)).toEqual([]);
    expect(signInConfigProblems(withKeys(api, "kept"), signIn, env)).toEqual([]);
    expect(signInConfigProblems(withKeys(api, "kept"), withKeys(signIn, "elsewhere"), env)).toEqual([
      `[env.${env}] of wrangler.auth.toml reads another API_KEYS namespace than the API's`,
    ]);
  });

  it("is refused when any of the five differs", async () => {
    const { api, signIn } = await both();
    const changes: [string, (copy: EnvironmentConfig, apiCopy: EnvironmentConfig) => void][] = [
      [
        `binds AUTH to petstore-auth-${env}, not the sign-in Worker petstore-other`,
        (copy) => {
          copy.name = "petstore-other";
        },
      ],
      [
        "has no KV binding API_KEYS",
        (copy) => {
          copy.kv_namespaces = copy.kv_namespaces.filter(({ binding }) => binding !== "API_KEYS");
        },
      ],
      [
        "has no KV binding OAUTH_KV",
        (copy) => {
          copy.kv_namespaces = copy.kv_namespaces.filter(({ binding }) => binding !== "OAUTH_KV");
        },
      ],
      [
        "keeps OAUTH_KV in a namespace of the API's",
        (copy, apiCopy) => {
          const keys = apiCopy.kv_namespaces.find(({ binding }) => binding === "API_KEYS");
          const oauth = copy.kv_namespaces.find(({ binding }) => binding === "OAUTH_KV");
          if (keys && oauth) [keys.id, oauth.id] = ["one-namespace", "one-namespace"];
        },
      ],
      [
        "counts failed sign-ins apart from the API's AUTH_FAILURE_LIMITER",
        (copy) => {
          for (const limiter of copy.ratelimits) limiter.namespace_id = "9999";
        },
      ],
    ];
    for (const [problem, change] of changes) {
      const [copy, apiCopy] = [structuredClone(signIn), structuredClone(api)];
      change(copy, apiCopy);
      const named = problem.startsWith("binds")
        ? `[env.${env}] ${problem}`
        : `[env.${env}] of wrangler.auth.toml ${problem}`;
      expect(signInConfigProblems(apiCopy, copy, env), problem).toEqual([named]);
    }
  });
});
