// `npm run deploy:staging`, `npm run deploy:production [-- --all-at-once]`, and either
// with `-- --dry-run`, which builds the Worker and prints the plan without a network call
// (npm test runs both).
//
// Checks that openapi.json is current and that the Worker will have a usable
// CURSOR_SECRET, applies the remote D1 migrations (scripts/check-migrations.ts keeps them
// safe for the version still serving), then:
// - staging: deploys the new version to all traffic at once, then runs the smoke test
//   (scripts/smoke.ts) when SMOKE_BASE_URL and SMOKE_KEY are set;
// - production: uploads a new version that takes no traffic, smoke-tests it through a
//   version override, then moves traffic to it in ROLLOUT_STEPS (default 10,100 percent),
//   each share serving for ROLLOUT_SOAK (default 10m) and smoke-tested again before the
//   next. A failed smoke test puts the previous version back on all traffic and fails the
//   deploy. `--all-at-once` deploys production like staging: for its first deploy, which
//   has no previous version to keep serving.
//
// CURSOR_SECRET in this process's environment is uploaded with the new version
// (`--secrets-file`): the only way to give a Worker that does not exist yet its required
// secret. Without it, the deployed Worker must already have one.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { BUNDLE_BUDGETS_KIB, builtBundle, checkBundleBudget, freshOutdir } from "./lib/bundle-budget";
import {
  configProblems,
  type EnvironmentConfig,
  listedSegments,
  shortSecrets,
  signInConfigProblems,
} from "./lib/check-config";
import { checkDeployedSecret } from "./lib/deployed-secret";
import { createMissingDatabases, PROVISIONED_CONFIGS, uploadConfig } from "./lib/provisioning";
import { DEFAULT_ROLLOUT, parseRolloutSoak, parseRolloutSteps, rollOut } from "./lib/rollout";
import { rolloutActions, step } from "./lib/rollout-actions";
import { DEPLOYED_ENVIRONMENTS } from "./lib/target";
import { REQUIRED_SECRET, servingVersion, uploadVersion, withSecretsFile } from "./lib/versions";
import { runWrangler, SIGN_IN_CONFIG, workerConfig, wrangler } from "./lib/wrangler";
import { productionHosts, runSmokeTest, smokeTarget } from "./smoke";

/** Builds both Workers as they would be uploaded, checks their sizes, and prints what a deploy would do. */
const dryRun = (env: string, allAtOnce: boolean, { steps, soakMs }: { steps: number[]; soakMs: number }) => {
  const signInOut = freshOutdir(path.join(".wrangler", "dry-run", `${env}-sign-in`));
  wrangler(["deploy", "--config", SIGN_IN_CONFIG, "--dry-run", "--env", env, "--outdir", signInOut]);
  const signInKiB = checkBundleBudget(builtBundle(signInOut), BUNDLE_BUDGETS_KIB.signIn);
  console.log(
    `[deploy --dry-run] ${env}: wrangler deploy --config ${SIGN_IN_CONFIG} --dry-run built the sign-in Worker, ${signInKiB.toFixed(2)} KiB gzip (budget ${BUNDLE_BUDGETS_KIB.signIn} KiB)`,
  );
  const outdir = freshOutdir(path.join(".wrangler", "dry-run", env));
  const command = env === "production" && !allAtOnce ? ["versions", "upload"] : ["deploy"];
  wrangler([...command, "--dry-run", "--env", env, "--outdir", outdir]);
  const gzipKiB = checkBundleBudget(builtBundle(outdir), BUNDLE_BUDGETS_KIB.api);
  console.log(
    `[deploy --dry-run] ${env}: wrangler ${command.join(" ")} --dry-run built the Worker, ${gzipKiB.toFixed(2)} KiB gzip (budget ${BUNDLE_BUDGETS_KIB.api} KiB)`,
  );
  const shares = steps.slice(0, -1).map((share) => `${share}% for ${soakMs / 60_000} min, smoke test`);
  const plan =
    command[0] === "deploy"
      ? "databases created if missing, migrations, the sign-in Worker, deploy to all traffic, smoke test"
      : `databases created if missing, migrations, versions upload of the sign-in Worker and the API, both at 0% and smoke test, ${[...shares, "100%"].join(", ")}, each step for both (a failed smoke test rolls both back), triggers deploy`;
  console.log(`[deploy --dry-run] ${env} would run: ${plan}`);
};

/** What this deploy has changed so far, said when a later step fails. */
const done: string[] = [];

const main = async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { "all-at-once": { type: "boolean", default: false }, "dry-run": { type: "boolean", default: false } },
  });
  const [env, ...extra] = positionals;
  if (!env || !DEPLOYED_ENVIRONMENTS.includes(env) || extra.length > 0) {
    throw new Error(`Usage: npm run deploy:<${DEPLOYED_ENVIRONMENTS.join("|")}> -- [--all-at-once] [--dry-run]`);
  }
  const api = (await workerConfig(env)) as EnvironmentConfig;
  const signIn = (await workerConfig(env, SIGN_IN_CONFIG)) as EnvironmentConfig;
  const problems = [
    ...configProblems(api, env),
    ...signInConfigProblems(api, signIn, env),
    ...shortSecrets(process.env),
  ];
  if (problems.length > 0)
    throw new Error(`Not ready to deploy ${env}, so nothing was deployed:\n  ${problems.join("\n  ")}`);
  const gradual = env === "production" && !values["all-at-once"];
  const rollout = {
    steps: parseRolloutSteps(process.env.ROLLOUT_STEPS || DEFAULT_ROLLOUT.steps),
    soakMs: parseRolloutSoak(process.env.ROLLOUT_SOAK || DEFAULT_ROLLOUT.soak),
  };
  if (values["dry-run"]) return dryRun(env, values["all-at-once"], rollout);

  const { SMOKE_BASE_URL: smokeBaseUrl, SMOKE_KEY: smokeKey } = process.env;
  if (!smokeBaseUrl !== !smokeKey) {
    throw new Error("Set both SMOKE_BASE_URL and SMOKE_KEY for the smoke test, or neither.");
  }
  const smoke =
    smokeBaseUrl && smokeKey ? smokeTarget(smokeBaseUrl, smokeKey, env, await productionHosts()) : undefined;
  if (gradual && !smoke) {
    throw new Error(
      "A production deploy smoke-tests the new version before it takes traffic: set SMOKE_BASE_URL and SMOKE_KEY.",
    );
  }
  const givenSecret = process.env[REQUIRED_SECRET];

  step("openapi.json is current");
  if (spawnSync("npm", ["run", "--silent", "check:openapi"], { stdio: "inherit" }).status !== 0) {
    throw new Error("openapi.json is stale: run npm run openapi and commit it.");
  }

  if (givenSecret === undefined) checkDeployedSecret(env);
  const signInWorker = { config: SIGN_IN_CONFIG, resolved: signIn };
  const apiWorker = { config: "wrangler.toml", resolved: api };
  const stable = gradual ? servingVersion(env) : undefined;
  const signInStable = gradual ? servingVersion(env, SIGN_IN_CONFIG) : undefined;

  step(`D1 databases that [env.${env}] names without an id: created if the account has none of that name`);
  createMissingDatabases(wrangler, env, api, (name) => {
    console.log(`[deploy] created ${name}`);
    done.push(`created the database ${name}`);
  });
  // Every segment of pets, DB first (src/db/segments.ts): the same schema in each.
  for (const binding of listedSegments(api)) {
    step(`D1 migrations of ${binding} (${env}, remote)`);
    runWrangler(["d1", "migrations", "apply", binding, "--remote", "--env", env]);
    done.push(`applied the migrations of ${binding}`);
  }

  // A gradual deploy has them all (checked above); the other conditions only tell TypeScript so.
  if (!gradual || !stable || !signInStable || !smoke) {
    // First: the API's AUTH binding names it, and a new API version may need what it adds.
    const signInConfig = await uploadConfig(wrangler, env, signInWorker, apiWorker);
    step(`the sign-in Worker: wrangler deploy --config ${signInConfig} --env ${env}`);
    runWrangler(["deploy", "--config", signInConfig, "--env", env]);
    done.push("deployed the sign-in Worker");
    const apiConfig = await uploadConfig(wrangler, env, apiWorker, signInWorker);
    step(
      `wrangler deploy --config ${apiConfig} --env ${env}${givenSecret === undefined ? "" : `, with ${REQUIRED_SECRET}`}`,
    );
    withSecretsFile(givenSecret, (secretsArgs) =>
      runWrangler(["deploy", "--config", apiConfig, "--env", env, ...secretsArgs]),
    );
    done.push("deployed the API");
    if (!smoke) {
      console.log(
        "[deploy] Smoke test skipped: set SMOKE_BASE_URL and SMOKE_KEY, or run SMOKE_KEY=<key> npm run smoke -- --base-url <url>/v1",
      );
      return;
    }
    step(`smoke test against ${smoke.baseUrl}`);
    if (!(await runSmokeTest(smoke))) throw new Error(`The smoke test failed against ${smoke.baseUrl}.`);
    return;
  }

  // Both Workers as versions that take no traffic yet, rolled out together and rolled back together.
  const signInConfig = await uploadConfig(wrangler, env, signInWorker, apiWorker);
  step(`the sign-in Worker: wrangler versions upload --config ${signInConfig} --env ${env}`);
  const signInCandidate = uploadVersion(env, [], signInConfig);
  done.push("uploaded the sign-in Worker's version");
  const apiConfig = await uploadConfig(wrangler, env, apiWorker, signInWorker);
  step(
    `wrangler versions upload --config ${apiConfig} --env ${env}${givenSecret === undefined ? "" : `, with ${REQUIRED_SECRET}`}`,
  );
  const candidate = withSecretsFile(givenSecret, (secretsArgs) => uploadVersion(env, secretsArgs, apiConfig));
  done.push("uploaded the API's version");
  const workers = [
    { worker: SIGN_IN_CONFIG, stable: signInStable, candidate: signInCandidate },
    { worker: "wrangler.toml", stable, candidate },
  ];
  await rollOut({ workers, ...rollout }, rolloutActions(env, smoke));
  // A version upload leaves the cron triggers as they were; the rollout's end applies wrangler.toml's.
  step("wrangler triggers deploy");
  runWrangler(["triggers", "deploy", "--env", env]);
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    await main();
  } catch (error) {
    console.error(`[deploy] ${(error as Error).message}`);
    if (done.length > 0) {
      console.error(
        `[deploy] Done before it stopped: ${done.join("; ")}. Running it again finishes the deploy, creating nothing twice.`,
      );
    }
    process.exitCode = 1;
  } finally {
    rmSync(PROVISIONED_CONFIGS, { recursive: true, force: true });
  }
}
