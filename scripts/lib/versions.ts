// What a deploy asks wrangler about an environment's versions: the one serving now, and
// the upload of a new one (with CURSOR_SECRET when one is given).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runWrangler, wrangler } from "./wrangler";

export const REQUIRED_SECRET = "CURSOR_SECRET";

/** The version serving most of an environment's traffic now, of the Worker `config` describes; throws if it has no deployment. */
export const servingVersion = (env: string, config = "wrangler.toml"): string => {
  let deployment: { versions: { version_id: string; percentage: number }[] };
  try {
    deployment = JSON.parse(wrangler(["deployments", "status", "--config", config, "--env", env, "--json"]));
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\nWithout a deployed version to keep serving, deploy ${env} all at once: npm run deploy:${env} -- --all-at-once`,
    );
  }
  const [serving] = deployment.versions.toSorted((a, b) => b.percentage - a.percentage);
  if (!serving) throw new Error(`${env} has no deployed version.`);
  return serving.version_id;
};

/** Runs `upload` with a file for CURSOR_SECRET, when one is given, that is gone afterwards. */
export const withSecretsFile = <T>(secret: string | undefined, upload: (secretsArgs: string[]) => T): T => {
  if (secret === undefined) return upload([]);
  // JSON, not dotenv: wrangler expands $VAR in dotenv values, and a secret may hold a $.
  const directory = mkdtempSync(path.join(tmpdir(), "petstore-deploy-"));
  const secretsFile = path.join(directory, "secrets.json");
  try {
    writeFileSync(secretsFile, JSON.stringify({ [REQUIRED_SECRET]: secret }), { mode: 0o600 });
    return upload(["--secrets-file", secretsFile]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
};

/** `wrangler versions upload` of the Worker `config` describes, tagged with the commit; returns the new version's id (from wrangler's output file). */
export const uploadVersion = (env: string, secretsArgs: string[], config = "wrangler.toml"): string => {
  const directory = mkdtempSync(path.join(tmpdir(), "petstore-upload-"));
  const outputFile = path.join(directory, "output.jsonl");
  try {
    const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim();
    const tag = commit ? ["--tag", commit, "--message", `commit ${commit}`] : [];
    runWrangler(["versions", "upload", "--config", config, "--env", env, ...tag, ...secretsArgs], {
      WRANGLER_OUTPUT_FILE_PATH: outputFile,
    });
    const entries = readFileSync(outputFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const versionId = entries.find(({ type }) => type === "version-upload")?.version_id;
    if (typeof versionId !== "string") throw new Error("wrangler versions upload reported no version id.");
    return versionId;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
};
