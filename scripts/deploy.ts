// `npm run deploy:staging`, `npm run deploy:production`: checks that openapi.json is
// current and that the Worker will have a usable CURSOR_SECRET, applies the remote D1
// migrations, deploys, then runs the smoke test (scripts/smoke.ts) when SMOKE_BASE_URL
// and SMOKE_KEY are set. The secret is checked first because wrangler deploy would
// refuse a Worker without it only after the migrations had been applied.
//
// CURSOR_SECRET in this process's environment is deployed with the new version
// (`wrangler deploy --secrets-file`): the only way to give a Worker that does not exist
// yet its required secret. Without it, the deployed Worker must already have one.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MIN_SECRET_BYTES } from "../src/cursor";
import { runSmokeTest, smokeTarget } from "./smoke";
import { runWrangler, wrangler } from "./wrangler";

const ENVIRONMENTS = ["staging", "production"];
const REQUIRED_SECRET = "CURSOR_SECRET";

const step = (title: string) => console.log(`\n[deploy] ${title}`);

const main = async () => {
  const [env, ...extra] = process.argv.slice(2);
  if (!env || !ENVIRONMENTS.includes(env) || extra.length > 0) {
    throw new Error(`Usage: tsx scripts/deploy.ts <${ENVIRONMENTS.join("|")}>`);
  }
  const { SMOKE_BASE_URL: smokeBaseUrl, SMOKE_KEY: smokeKey } = process.env;
  if (!smokeBaseUrl !== !smokeKey) {
    throw new Error("Set both SMOKE_BASE_URL and SMOKE_KEY for the smoke test, or neither.");
  }
  const smoke = smokeBaseUrl && smokeKey ? smokeTarget(smokeBaseUrl, smokeKey) : undefined;
  const givenSecret = process.env[REQUIRED_SECRET];
  if (givenSecret !== undefined && Buffer.byteLength(givenSecret) < MIN_SECRET_BYTES) {
    throw new Error(`${REQUIRED_SECRET} in the environment is shorter than ${MIN_SECRET_BYTES} bytes.`);
  }

  step("openapi.json is current");
  if (spawnSync("npm", ["run", "--silent", "check:openapi"], { stdio: "inherit" }).status !== 0) {
    throw new Error("openapi.json is stale: run npm run openapi and commit it.");
  }

  const setItFirst =
    `Give it one, at least ${MIN_SECRET_BYTES} bytes, with this deploy:\n` +
    `  ${REQUIRED_SECRET}="$(openssl rand -base64 32)" npm run deploy:${env}`;
  if (givenSecret === undefined) {
    step(`the ${env} Worker has the secret ${REQUIRED_SECRET}`);
    let secrets: { name: string }[];
    try {
      secrets = JSON.parse(wrangler(["secret", "list", "--env", env]));
    } catch (error) {
      throw new Error(`${(error as Error).message}\nIf this is the first deploy of ${env}: ${setItFirst}`);
    }
    if (!secrets.some(({ name }) => name === REQUIRED_SECRET)) {
      throw new Error(`The ${env} Worker has no ${REQUIRED_SECRET}. ${setItFirst}`);
    }
  }

  step(`D1 migrations (${env}, remote)`);
  runWrangler(["d1", "migrations", "apply", "DB", "--remote", "--env", env]);
  step(`wrangler deploy --env ${env}${givenSecret === undefined ? "" : `, with ${REQUIRED_SECRET}`}`);
  if (givenSecret === undefined) {
    runWrangler(["deploy", "--env", env]);
  } else {
    // JSON, not dotenv: wrangler expands $VAR in dotenv values, and a secret may hold a $.
    const directory = mkdtempSync(path.join(tmpdir(), "petstore-deploy-"));
    const secretsFile = path.join(directory, "secrets.json");
    try {
      writeFileSync(secretsFile, JSON.stringify({ [REQUIRED_SECRET]: givenSecret }), { mode: 0o600 });
      runWrangler(["deploy", "--env", env, "--secrets-file", secretsFile]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }

  if (!smoke) {
    console.log(
      "[deploy] Smoke test skipped: set SMOKE_BASE_URL and SMOKE_KEY, or run SMOKE_KEY=<key> npm run smoke -- --base-url <url>/v1",
    );
    return;
  }
  step(`smoke test against ${smoke.baseUrl}`);
  await runSmokeTest(smoke);
  if (process.exitCode) throw new Error(`The smoke test failed against ${smoke.baseUrl}.`);
};

try {
  await main();
} catch (error) {
  console.error(`[deploy] ${(error as Error).message}`);
  process.exitCode = 1;
}
