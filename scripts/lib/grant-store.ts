// The sign-in Worker's OAUTH_KV (wrangler.auth.toml), as `npm run key:grants` reads and
// deletes in it: locally through a runtime in this process on the state that `npm run dev`
// serves (the namespace shares that directory with the API's), remotely through wrangler's CLI.
import path from "node:path";
import { quietly } from "./stores";
import { localState, type Target, targetArgs } from "./target";
import { whileBusy } from "./while-busy";
import { SIGN_IN_CONFIG, wrangler } from "./wrangler";

export type GrantStore = {
  /** The names under `prefix`, every page of them. */
  list: (prefix: string) => Promise<string[]>;
  get: (name: string) => Promise<string | undefined>;
  delete: (name: string) => Promise<void>;
  close: () => Promise<void>;
};

const ROOT = path.resolve(import.meta.dirname, "../..");
const KV = ["--binding", "OAUTH_KV", "--config", SIGN_IN_CONFIG];

const remoteGrantStore = (target: Target): GrantStore => {
  const at = targetArgs(target);
  return {
    list: async (prefix) =>
      (JSON.parse(wrangler(["kv", "key", "list", ...KV, "--prefix", prefix, ...at])) as { name: string }[]).map(
        ({ name }) => name,
      ),
    get: async (name) => {
      const found = wrangler(["kv", "key", "get", ...KV, name, ...at]).trim();
      return found === "Value not found" ? undefined : found;
    },
    delete: async (name) => {
      wrangler(["kv", "key", "delete", ...KV, name, ...at]);
    },
    close: async () => {},
  };
};

const localGrantStore = async (target: Target): Promise<GrantStore> => {
  const { getPlatformProxy } = await import("wrangler");
  const persistTo = localState(target);
  const { env, dispose } = await quietly(() =>
    getPlatformProxy<{ OAUTH_KV: KVNamespace }>({
      configPath: path.join(ROOT, SIGN_IN_CONFIG),
      environment: target.env,
      persist: { path: path.join(persistTo, "v3") },
      remoteBindings: false,
    }),
  );
  return {
    list: async (prefix) => {
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await whileBusy(() => env.OAUTH_KV.list({ prefix, cursor }));
        names.push(...page.keys.map(({ name }) => name));
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor);
      return names;
    },
    get: async (name) => (await whileBusy(() => env.OAUTH_KV.get(name))) ?? undefined,
    delete: (name) => whileBusy(() => env.OAUTH_KV.delete(name)),
    close: dispose,
  };
};

export const openGrantStore = (target: Target): Promise<GrantStore> =>
  target.remote ? Promise.resolve(remoteGrantStore(target)) : localGrantStore(target);
