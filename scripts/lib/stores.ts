// The KV of API keys and the D1 database, as the key and usage scripts read and write
// them: locally through one runtime in this process (wrangler's getPlatformProxy, on the
// state that `npm run dev` serves), remotely through wrangler's CLI. A local command thus
// starts one runtime instead of a wrangler process per read or write (seconds each).
import path from "node:path";
import { segmentLayout } from "../../src/db/segments";
import { configOf, describeTarget, localState, type Target, targetArgs } from "./target";
import { whileBusy } from "./while-busy";
import { wrangler } from "./wrangler";

export type KeyEntry = { name: string; metadata?: unknown };

export type Stores = {
  /** The API_KEYS namespace. */
  keys: {
    get: (name: string) => Promise<string | undefined>;
    /** Writes `value`, with `metadata` beside it (what a listing returns). */
    put: (name: string, value: string, metadata: unknown) => Promise<void>;
    delete: (name: string) => Promise<void>;
    list: () => Promise<KeyEntry[]>;
  };
  /** The rows of one read-only statement on the DB database. */
  query: <Row>(sql: string) => Promise<Row[]>;
  close: () => Promise<void>;
};

/** Local stores also hand over the database itself, and every segment of pets with it (scripts/dev.ts migrates them). */
export type LocalStores = Stores & { database: D1Database; segments: readonly D1Database[] };

const ROOT = path.resolve(import.meta.dirname, "../..");
const KV = ["--binding", "API_KEYS"];

const remoteStores = (target: Target): Stores => {
  const at = targetArgs(target);
  return {
    keys: {
      get: async (name) => {
        const found = wrangler(["kv", "key", "get", ...KV, name, ...at]).trim();
        return found === "Value not found" ? undefined : found;
      },
      put: async (name, value, metadata) => {
        wrangler(["kv", "key", "put", ...KV, name, value, "--metadata", JSON.stringify(metadata), ...at]);
      },
      delete: async (name) => {
        wrangler(["kv", "key", "delete", ...KV, name, ...at]);
      },
      list: async () => JSON.parse(wrangler(["kv", "key", "list", ...KV, ...at])) as KeyEntry[],
    },
    query: async <Row>(sql: string) => {
      const [result] = JSON.parse(wrangler(["d1", "execute", "DB", ...at, "--json", "--command", sql]));
      return (result?.results ?? []) as Row[];
    },
    close: async () => {},
  };
};

/**
 * wrangler says on stdout which secrets it read, which these stores do not use: it is told
 * to keep quiet while it starts them, and only then (the processes that this one starts
 * meanwhile would inherit the setting).
 */
export const quietly = async <T>(start: () => Promise<T>): Promise<T> => {
  const level = process.env.WRANGLER_LOG;
  process.env.WRANGLER_LOG ??= "warn";
  try {
    return await start();
  } finally {
    if (level === undefined) delete process.env.WRANGLER_LOG;
  }
};

/** `wrangler dev --persist-to <dir>` keeps its state under <dir>/v3; by default <dir> is .wrangler/state. */
export const openLocalStores = async (target: Target): Promise<LocalStores> => {
  const { getPlatformProxy } = await import("wrangler");
  const persistTo = localState(target);
  const { env, dispose } = await quietly(() =>
    getPlatformProxy<Cloudflare.Env>({
      configPath: path.resolve(ROOT, configOf(target)),
      environment: target.env,
      persist: { path: path.join(persistTo, "v3") },
      remoteBindings: false,
    }),
  );
  return {
    keys: {
      get: async (name) => (await whileBusy(() => env.API_KEYS.get(name))) ?? undefined,
      put: (name, value, metadata) => whileBusy(() => env.API_KEYS.put(name, value, { metadata })),
      delete: (name) => whileBusy(() => env.API_KEYS.delete(name)),
      list: async () => {
        const entries: KeyEntry[] = [];
        let cursor: string | undefined;
        do {
          const page = await whileBusy(() => env.API_KEYS.list({ cursor }));
          entries.push(...page.keys.map(({ name, metadata }) => ({ name, metadata })));
          cursor = page.list_complete ? undefined : page.cursor;
        } while (cursor);
        return entries;
      },
    },
    query: async <Row>(sql: string) => (await whileBusy(() => env.DB.prepare(sql).all<Row>())).results,
    database: env.DB,
    segments: segmentLayout(env).databases,
    close: dispose,
  };
};

/** The target's stores; a local one must be closed (its runtime otherwise keeps this process alive). */
export const openStores = async (target: Target): Promise<Stores> => {
  if (target.remote) return remoteStores(target);
  try {
    return await openLocalStores(target);
  } catch (error) {
    throw new Error(`Could not open ${describeTarget(target, "KV")}: ${(error as Error).message}`);
  }
};
