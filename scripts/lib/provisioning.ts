// What a deploy adds to wrangler's provisioning, for the bindings that the [env.*] blocks of
// wrangler.toml and wrangler.auth.toml give no id. wrangler (4.45 or later) creates a KV
// namespace or a D1 database at a Worker's first upload and binds the same one at every upload
// after, taking it from the deployed Worker. Two things it cannot do alone:
// - the D1 migrations run before the first upload, so a database that the configuration names
//   and Cloudflare does not have yet is created first, by that name;
// - both Workers read one API_KEYS namespace, where wrangler would create one for each: a
//   Worker uploaded while the other binds API_KEYS and it does not is given the other's
//   namespace, through a copy of its configuration with that id.
// A configuration that gives ids keeps them: wrangler then provisions nothing.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EnvironmentConfig } from "./check-config";

type Wrangler = (args: string[]) => string;
type DeployedBinding = { type: string; name: string; namespace_id?: string };

/** The KV binding both Workers read, which must name one namespace. */
const SHARED_NAMESPACE = "API_KEYS";

/**
 * Where this process writes the copies of a configuration with the shared namespace's id
 * (ignored by git, as all of .wrangler/): a folder of its own, so that two deploys, or a
 * deploy and a test, never read each other's.
 */
export const PROVISIONED_CONFIGS = path.join(".wrangler", "provisioned", String(process.pid));

/** What wrangler says of a Worker that is not on the account yet, or has never been deployed. */
const NOT_DEPLOYED = /code: 10007|has no deployments|does not exist/i;

/** The bindings of the version serving most of a Worker's traffic; undefined when the Worker is not deployed. */
const deployedBindings = (wrangler: Wrangler, env: string, config: string): DeployedBinding[] | undefined => {
  const args = ["--config", config, "--env", env, "--json"];
  let deployment: { versions: { version_id: string; percentage: number }[] };
  try {
    deployment = JSON.parse(wrangler(["deployments", "status", ...args]));
  } catch (error) {
    if (NOT_DEPLOYED.test((error as Error).message)) return undefined;
    throw error;
  }
  const [serving] = deployment.versions.toSorted((a, b) => b.percentage - a.percentage);
  if (!serving) return undefined;
  const version = JSON.parse(wrangler(["versions", "view", serving.version_id, ...args]));
  return version.resources.bindings;
};

/**
 * Creates each D1 database that `api` binds by name alone and that Cloudflare does not have,
 * so that the migrations find it; wrangler's upload then binds it by that name. Each is said
 * to `created` as soon as it exists.
 */
export const createMissingDatabases = (
  wrangler: Wrangler,
  env: string,
  api: EnvironmentConfig,
  created: (name: string) => void,
) => {
  const unbound = api.d1_databases.filter(({ database_id }) => !database_id);
  const nameless = unbound.find(({ database_name }) => !database_name);
  if (nameless) throw new Error(`[env.${env}] binds ${nameless.binding} to a D1 database with neither id nor name.`);
  if (unbound.length === 0) return;
  const listed = new Set(
    (JSON.parse(wrangler(["d1", "list", "--json", "--env", env])) as { name: string }[]).map(({ name }) => name),
  );
  for (const { database_name: name = "" } of unbound) {
    if (listed.has(name)) continue;
    wrangler(["d1", "create", name, "--env", env]);
    created(name);
  }
};

const sharedId = (config: EnvironmentConfig) =>
  config.kv_namespaces.find(({ binding }) => binding === SHARED_NAMESPACE)?.id;

/**
 * The configuration to upload the Worker of `config` with: `config` itself, unless it gives
 * API_KEYS no id and the Worker has none deployed while the other Worker (`partner`) has one;
 * then a copy of it with the partner's namespace. When neither has one, wrangler provisions
 * it for the first, and the second follows.
 */
export const uploadConfig = async (
  wrangler: Wrangler,
  env: string,
  worker: { config: string; resolved: EnvironmentConfig },
  partner: { config: string; resolved: EnvironmentConfig },
): Promise<string> => {
  if (sharedId(worker.resolved)) return worker.config;
  const bound = (bindings: DeployedBinding[] | undefined) =>
    bindings?.find(({ type, name }) => type === "kv_namespace" && name === SHARED_NAMESPACE)?.namespace_id;
  if (bound(deployedBindings(wrangler, env, worker.config))) return worker.config;
  const id = sharedId(partner.resolved) ?? bound(deployedBindings(wrangler, env, partner.config));
  return id ? await configWithSharedId(worker.config, env, id) : worker.config;
};

/** A copy of `config` (as JSON) whose environment `env` binds API_KEYS to the namespace `id`; its path. */
const configWithSharedId = async (config: string, env: string, id: string): Promise<string> => {
  const { experimental_readRawConfig } = await import("wrangler");
  const { rawConfig } = experimental_readRawConfig({ config }, { useRedirectIfAvailable: false });
  const copy = structuredClone(rawConfig);
  const namespace = copy.env?.[env]?.kv_namespaces?.find(
    (bound: { binding: string }) => bound.binding === SHARED_NAMESPACE,
  );
  if (!namespace) throw new Error(`${config} gives ${env} no KV binding ${SHARED_NAMESPACE}.`);
  namespace.id = id;
  const directory = path.resolve(PROVISIONED_CONFIGS);
  // Its paths, relative to the file as wrangler reads them, point where the original's do.
  const from = (relative: string) => path.relative(directory, path.resolve(path.dirname(config), relative));
  if (copy.main) copy.main = from(copy.main);
  for (const environment of [copy, ...Object.values(copy.env ?? {})]) {
    for (const database of environment.d1_databases ?? []) {
      if (database.migrations_dir) database.migrations_dir = from(database.migrations_dir);
    }
  }
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${path.basename(config, path.extname(config))}.${env}.json`);
  writeFileSync(file, `${JSON.stringify(copy, null, 2)}\n`);
  return file;
};
