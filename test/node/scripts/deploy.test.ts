import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUNDLE_BUDGETS_KIB, checkBundleBudget } from "../../../scripts/lib/bundle-budget";
import { DEFAULT_ROLLOUT, parseRolloutSoak, parseRolloutSteps, rollOut } from "../../../scripts/lib/rollout";
import { rolloutActions } from "../../../scripts/lib/rollout-actions";
import { DEPLOYED_ENVIRONMENTS } from "../../../scripts/lib/target";
import { SIGN_IN_CONFIG, workerConfig } from "../../../scripts/lib/wrangler";

// What a production deploy does between `wrangler versions upload` and all traffic on the
// new version (scripts/deploy.ts), with wrangler's commands and the smoke test recorded
// rather than sent to Cloudflare; `npm run check:deploy` dry-runs the real commands.

const stable = "11111111-1111-4111-8111-111111111111";
const candidate = "22222222-2222-4222-8222-222222222222";
const signInStable = "33333333-3333-4333-8333-333333333333";
const signInCandidate = "44444444-4444-4444-8444-444444444444";
const soakMs = 600_000;
const workers = [
  { worker: SIGN_IN_CONFIG, stable: signInStable, candidate: signInCandidate },
  { worker: "wrangler.toml", stable, candidate },
];
const SMOKE = { baseUrl: "https://petstore.example/v1", key: "ps_live_smoke" };

/**
 * The production rollout's actions (scripts/deploy.ts) on a recording wrangler: each command
 * it would run, in short; each smoke test with the version overrides it sent; each wait. The
 * smoke test fails on the calls numbered in `failingSmokeTests` (from 1).
 */
const recorder = (failingSmokeTests: number[] = []) => {
  const done: string[] = [];
  let smokeTests = 0;
  const actions = rolloutActions("production", SMOKE, {
    run: (args) => {
      const config = args[args.indexOf("--config") + 1];
      const specs = args.slice(2, args.indexOf("--config"));
      expect(args.slice(0, 2)).toEqual(["versions", "deploy"]);
      expect(args.slice(args.indexOf("--env"), args.indexOf("--env") + 2)).toEqual(["--env", "production"]);
      done.push(`${config === SIGN_IN_CONFIG ? "sign-in" : "api"} ${specs.join(" ")}`);
    },
    smokeTest: async ({ versionOverride }) => {
      done.push(`smoke ${versionOverride}`);
      return !failingSmokeTests.includes(++smokeTests);
    },
    wait: async (ms) => {
      done.push(`wait ${ms}`);
    },
  });
  return { actions, done };
};
const OVERRIDES = `smoke petstore-auth-production="${signInCandidate}", petstore-production="${candidate}"`;

describe("a production rollout, on a recording wrangler", () => {
  it("puts both Workers' new versions at 0% and smoke-tests them, then serves both 10% for the soak time, tests again, then 100%", async () => {
    const { actions, done } = recorder();
    await rollOut({ workers, steps: [10, 100], soakMs }, actions);
    expect(done).toEqual([
      `sign-in ${signInStable}@100% ${signInCandidate}@0%`,
      `api ${stable}@100% ${candidate}@0%`,
      OVERRIDES,
      `sign-in ${signInCandidate}@10% ${signInStable}@90%`,
      `api ${candidate}@10% ${stable}@90%`,
      `wait ${soakMs}`,
      OVERRIDES,
      `sign-in ${signInCandidate}@100%`,
      `api ${candidate}@100%`,
    ]);
  });

  it("stops at 0% when the smoke test fails: both previous versions keep all traffic, the API's put back first", async () => {
    const { actions, done } = recorder([1]);
    await expect(rollOut({ workers, steps: [10, 100], soakMs }, actions)).rejects.toThrow(
      "The smoke test failed at 0%: the previous versions serve all traffic again.",
    );
    expect(done).toEqual([
      `sign-in ${signInStable}@100% ${signInCandidate}@0%`,
      `api ${stable}@100% ${candidate}@0%`,
      OVERRIDES,
      `api ${stable}@100%`,
      `sign-in ${signInStable}@100%`,
    ]);
  });

  it("rolls both back from a step whose smoke test fails, and goes no further", async () => {
    const { actions, done } = recorder([3]);
    await expect(rollOut({ workers, steps: [10, 50, 100], soakMs }, actions)).rejects.toThrow(/at 50%/);
    expect(done.slice(-6)).toEqual([
      `sign-in ${signInCandidate}@50% ${signInStable}@50%`,
      `api ${candidate}@50% ${stable}@50%`,
      `wait ${soakMs}`,
      OVERRIDES,
      `api ${stable}@100%`,
      `sign-in ${signInStable}@100%`,
    ]);
  });

  it("goes, unless told otherwise, to 10% and then 100%, each share for 10 minutes (docs/operations.md)", () => {
    expect(parseRolloutSteps(DEFAULT_ROLLOUT.steps)).toEqual([10, 100]);
    expect(parseRolloutSoak(DEFAULT_ROLLOUT.soak)).toBe(10 * 60_000);
  });

  it("takes rising steps that end at 100, and refuses any others", () => {
    expect(parseRolloutSteps("10,100")).toEqual([10, 100]);
    expect(parseRolloutSteps("100")).toEqual([100]);
    expect(parseRolloutSteps("5, 25, 100")).toEqual([5, 25, 100]);
    for (const wrong of ["", "10", "50,10,100", "10,10,100", "0,100", "10,100,100", "12.5,100", "ten,100"]) {
      expect(() => parseRolloutSteps(wrong), wrong).toThrow(/ROLLOUT_STEPS must be rising whole percentages/);
    }
  });

  it("soaks at most 24 hours, which a timer holds (25 days would overflow it into no wait at all)", () => {
    expect(parseRolloutSoak("24h")).toBe(86_400_000);
    expect(() => parseRolloutSoak("25d")).toThrow("ROLLOUT_SOAK must be at most 24h, not '25d'.");
    expect(() => parseRolloutSoak("0m")).toThrow(/ROLLOUT_SOAK must be a duration/);
  });
});

describe("the bundle budget", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "petstore-bundle-test-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it.each([
    ["the API", "api", 80],
    ["the sign-in Worker", "signIn", 40],
  ] as const)("refuses %s over its budget (%s), %s KiB gzip, as the docs state", (_name, worker, budgetKiB) => {
    expect(BUNDLE_BUDGETS_KIB[worker]).toBe(budgetKiB);
    const bundle = path.join(folder, `${worker}.js`);
    // Random bytes do not compress: the gzip is about as large as the file.
    writeFileSync(bundle, randomBytes((budgetKiB + 1) * 1024));
    expect(() => checkBundleBudget(bundle, BUNDLE_BUDGETS_KIB[worker])).toThrow(`over its budget of ${budgetKiB} KiB`);
    writeFileSync(bundle, randomBytes((budgetKiB - 2) * 1024));
    expect(checkBundleBudget(bundle, BUNDLE_BUDGETS_KIB[worker])).toBeLessThan(budgetKiB);
  });
});

// The shares of requests traced, as docs/operations.md states them: all in staging, 1 in 20 in production.
const TRACED_SHARE: Record<string, number> = { staging: 1, production: 0.05 };

describe.each(DEPLOYED_ENVIRONMENTS)("%s's observability (wrangler.toml)", (env) => {
  it("keeps every access line and invocation log in Workers Logs, and traces the share the docs state", async () => {
    const { observability, vars } = await workerConfig(env);
    expect(vars.ACCESS_LOG).toBe("json");
    expect(observability?.enabled).toBe(true);
    expect(observability?.logs).toMatchObject({ enabled: true, invocation_logs: true, head_sampling_rate: 1 });
    expect(observability?.traces?.enabled).toBe(true);
    expect(observability?.traces?.head_sampling_rate).toBe(TRACED_SHARE[env]);
  });
});

describe("npm run deploy:<environment> without credentials", () => {
  it("says that wrangler has none, not that the Worker lacks its secret", async () => {
    // No secret given: the deploy asks Cloudflare whether the Worker has one.
    const { CURSOR_SECRET: _given, ...environment } = process.env;
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          process.execPath,
          ["--import", "tsx", "scripts/deploy.ts", "staging"],
          {
            env: { ...environment, CI: "true", CLOUDFLARE_API_TOKEN: "", CLOUDFLARE_ACCOUNT_ID: "" },
          },
          (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
      },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/wrangler has no credentials for Cloudflare, so nothing was deployed/);
    expect(stdout + stderr).not.toMatch(/has no CURSOR_SECRET|first deploy/);
  });
});
