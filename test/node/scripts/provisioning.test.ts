import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtBundle, freshOutdir } from "../../../scripts/lib/bundle-budget";
import type { EnvironmentConfig } from "../../../scripts/lib/check-config";
import { createMissingDatabases, PROVISIONED_CONFIGS, uploadConfig } from "../../../scripts/lib/provisioning";
import { SIGN_IN_CONFIG, workerConfig, wrangler } from "../../../scripts/lib/wrangler";

// A deploy of an environment whose configuration gives its D1 database and KV namespaces no
// id (scripts/lib/provisioning.ts), with Cloudflare stood in for by a wrangler that answers
// from a table and records what it was asked; the copy of a configuration it writes is then
// built by the real wrangler (`--dry-run`). That wrangler's upload creates or inherits what
// has no id is its own documented behaviour, which only an account shows.

const env = "staging";
const SHARED = "0123456789abcdef0123456789abcdef";
const NOT_ON_ACCOUNT = "This Worker does not exist on your account. [code: 10007]";

afterAll(() => rmSync(PROVISIONED_CONFIGS, { recursive: true, force: true }));

type Account = {
  deployed: Record<string, string | null>;
  databases?: string[];
  /** What every command fails with. */
  failure?: string;
  /** A database whose creation fails. */
  failCreating?: string;
};

/** A wrangler on `account`: Workers by configuration, each with its API_KEYS id (null: deployed without it). */
const standIn = ({ deployed, databases = [], failure, failCreating }: Account) => {
  const asked: string[] = [];
  const run = (args: string[]) => {
    const config = args[args.indexOf("--config") + 1] ?? "";
    asked.push(args[0] === "d1" ? args.slice(0, 3).join(" ") : `${args.slice(0, 2).join(" ")} ${config}`);
    if (failure) throw new Error(failure);
    const [command, sub] = args;
    if (command === "d1" && sub === "list") return JSON.stringify(databases.map((name) => ({ name, uuid: name })));
    if (command === "d1" && sub === "create") {
      if (args[2] === failCreating) throw new Error(`wrangler ${args.join(" ")} failed:\nthe stand-in refused it`);
      return "";
    }
    const id = deployed[config];
    if (id === undefined) throw new Error(`wrangler ${args.join(" ")} failed:\n${NOT_ON_ACCOUNT}`);
    if (command === "deployments") return JSON.stringify({ versions: [{ version_id: "v1", percentage: 100 }] });
    const bindings = id === null ? [] : [{ type: "kv_namespace", name: "API_KEYS", namespace_id: id }];
    return JSON.stringify({ resources: { bindings } });
  };
  return { run, asked };
};

const configs = async () => ({
  api: { config: "wrangler.toml", resolved: (await workerConfig(env)) as EnvironmentConfig },
  signIn: { config: SIGN_IN_CONFIG, resolved: (await workerConfig(env, SIGN_IN_CONFIG)) as EnvironmentConfig },
});

const withKeysId = (worker: { config: string; resolved: EnvironmentConfig }, id: string) => {
  const resolved = structuredClone(worker.resolved);
  for (const namespace of resolved.kv_namespaces) if (namespace.binding === "API_KEYS") namespace.id = id;
  return { ...worker, resolved };
};

describe("the API_KEYS namespace of both Workers, when the configuration gives it no id", () => {
  /** The Worker `config` describes, built as its upload would be: what wrangler said, and the bundle. */
  const build = (config: string) => {
    const outdir = path.resolve(
      freshOutdir(path.join(".wrangler", "dry-run", `provisioning-${path.basename(config)}`)),
    );
    const said = wrangler(["deploy", "--dry-run", "--config", config, "--env", env, "--outdir", outdir]);
    return { said, bundle: readFileSync(builtBundle(outdir)) };
  };
  /** Each binding wrangler said, but API_KEYS, spaced alike. */
  const otherBindings = (said: string) =>
    said
      .split("\n")
      .filter((line) => /^env\.(?!API_KEYS)/.test(line))
      .map((line) => line.replace(/\s+/g, " ").trim());

  // The API when the sign-in Worker came first (a first deploy); the sign-in Worker when the API
  // did (a deployment older than the sign-in).
  it.each([
    ["the API", "wrangler.toml", SIGN_IN_CONFIG],
    ["the sign-in Worker", SIGN_IN_CONFIG, "wrangler.toml"],
  ])(
    "%s, uploaded while the other binds it, gets the other's: a copy of its configuration, which builds the same Worker with that id",
    async (_, own, other) => {
      const { api, signIn } = await configs();
      const [worker, partner] = own === "wrangler.toml" ? [api, signIn] : [signIn, api];
      const { run, asked } = standIn({ deployed: { [other]: SHARED } });
      const copy = await uploadConfig(run, env, worker, partner);
      expect(copy).not.toBe(own);
      expect(asked).toEqual([`deployments status ${own}`, `deployments status ${other}`, `versions view ${other}`]);

      const [original, copied] = [build(own), build(copy)];
      expect(copied.bundle.equals(original.bundle)).toBe(true);
      expect(copied.said).toMatch(new RegExp(`env\\.API_KEYS \\(${SHARED}\\)\\s+KV Namespace`));
      expect(original.said).not.toContain(SHARED);
      expect(otherBindings(copied.said)).toEqual(otherBindings(original.said));
      expect(otherBindings(original.said).length).toBeGreaterThan(1);
    },
  );

  it("a Worker that binds it already, or gives it an id, keeps its own configuration; with neither Worker binding it, wrangler creates one for the first", async () => {
    const { api, signIn } = await configs();
    const cases: [string, Account, typeof api, string[]][] = [
      ["deployed with it", { deployed: { "wrangler.toml": SHARED, [SIGN_IN_CONFIG]: SHARED } }, api, ["wrangler.toml"]],
      ["neither deployed", { deployed: {} }, api, ["wrangler.toml", SIGN_IN_CONFIG]],
      [
        "the other deployed without it",
        { deployed: { [SIGN_IN_CONFIG]: null } },
        api,
        ["wrangler.toml", SIGN_IN_CONFIG],
      ],
      ["an id in its configuration", { deployed: { [SIGN_IN_CONFIG]: "another" } }, withKeysId(api, SHARED), []],
    ];
    for (const [title, account, worker, askedOf] of cases) {
      const { run, asked } = standIn(account);
      expect(await uploadConfig(run, env, worker, signIn), title).toBe("wrangler.toml");
      expect(new Set(asked.map((question) => question.split(" ").at(-1))), title).toEqual(new Set(askedOf));
    }
  });

  it("takes the other's id from its configuration, when it gives one, without asking Cloudflare", async () => {
    const { api, signIn } = await configs();
    const { run, asked } = standIn({ deployed: {} });
    const copy = await uploadConfig(run, env, api, withKeysId(signIn, SHARED));
    expect(asked).toEqual(["deployments status wrangler.toml"]);
    const written = JSON.parse(readFileSync(copy, "utf8"));
    expect(written.env[env].kv_namespaces).toContainEqual({ binding: "API_KEYS", id: SHARED });
  });

  it("stops the deploy when Cloudflare cannot say whether a Worker is deployed (no credentials), rather than taking it for a new one", async () => {
    const { api, signIn } = await configs();
    const { run } = standIn({ deployed: {}, failure: "Authentication error [code: 10000]" });
    await expect(uploadConfig(run, env, api, signIn)).rejects.toThrow("Authentication error");
  });
});

/** What createMissingDatabases said it created, in order. */
const created = (run: (args: string[]) => string, config: EnvironmentConfig) => {
  const names: string[] = [];
  createMissingDatabases(run, env, config, (name) => names.push(name));
  return names;
};

describe("D1 databases that the configuration names without an id", () => {
  it("are created before the migrations when the account has none of that name, by that name", async () => {
    const { api } = await configs();
    const { run, asked } = standIn({ deployed: {} });
    expect(created(run, api.resolved)).toEqual(["petstore-staging"]);
    expect(asked).toEqual(["d1 list --json", "d1 create petstore-staging"]);
  });

  it("are left as they are when the account has them; a database with an id asks nothing", async () => {
    const { api } = await configs();
    const existing = standIn({ deployed: {}, databases: ["petstore-staging"] });
    expect(created(existing.run, api.resolved)).toEqual([]);
    expect(existing.asked).toEqual(["d1 list --json"]);
    const withId = structuredClone(api.resolved);
    for (const database of withId.d1_databases) database.database_id = "11111111-1111-4111-8111-111111111111";
    const kept = standIn({ deployed: {} });
    expect(created(kept.run, withId)).toEqual([]);
    expect(kept.asked).toEqual([]);
  });

  it("refuses a database with neither id nor name before creating any", async () => {
    const { api } = await configs();
    const config = structuredClone(api.resolved);
    config.d1_databases.push({ binding: "PETS_1" });
    const { run, asked } = standIn({ deployed: {} });
    expect(() => created(run, config)).toThrow("[env.staging] binds PETS_1 to a D1 database with neither id nor name.");
    expect(asked).toEqual([]);
  });

  it("says each database as soon as it exists, so that a deploy whose next creation fails names it", async () => {
    const { api } = await configs();
    const config = structuredClone(api.resolved);
    config.d1_databases.push({ binding: "PETS_1", database_name: "petstore-staging-pets-1" });
    const { run } = standIn({ deployed: {}, failCreating: "petstore-staging-pets-1" });
    const said: string[] = [];
    expect(() => createMissingDatabases(run, env, config, (name) => said.push(name))).toThrow("the stand-in refused");
    expect(said).toEqual(["petstore-staging"]);
  });
});
