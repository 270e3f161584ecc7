// The segments' databases as `npm run segment:open` reads and writes them, by binding: locally
// through one runtime in this process on the state `npm run dev` serves (wrangler's
// getPlatformProxy, started again once the configuration lists a new binding), remotely through
// wrangler's CLI.
import path from "node:path";
import { applyLocalMigrations, migrationFiles } from "../lib/local-migrations";
import { quietly } from "../lib/stores";
import { type Target, targetArgs } from "../lib/target";
import { whileBusy } from "../lib/while-busy";
import type { Cloudflare } from "./cloudflare";

export type SegmentStores = {
  /** The rows of one read-only statement on the database bound to `binding`. */
  query: <Row>(binding: string, sql: string) => Promise<Row[]>;
  /** Runs `statements` on that database in one batch: all of them, or none. */
  run: (binding: string, statements: string[]) => Promise<void>;
  /** The migrations of drizzle/ that database has not applied. */
  pendingMigrations: (binding: string) => Promise<string[]>;
  /** Applies them. */
  migrate: (binding: string) => Promise<void>;
  close: () => Promise<void>;
};

const ROOT = path.resolve(import.meta.dirname, "../..");

const remoteStores = (target: Target, config: string, wrangler: Cloudflare["wrangler"]): SegmentStores => {
  const at = [...targetArgs(target), "--config", config];
  const execute = <Row>(binding: string, sql: string) => {
    const results = JSON.parse(wrangler(["d1", "execute", binding, ...at, "--json", "--command", sql])) as {
      results?: Row[];
    }[];
    return results.flatMap((result) => result.results ?? []);
  };
  return {
    query: async (binding, sql) => execute(binding, sql),
    // One command: wrangler sends the statements of one --command to D1 as one batch.
    run: async (binding, statements) => {
      execute(binding, statements.join(";\n"));
    },
    pendingMigrations: async (binding) => {
      const listed = wrangler(["d1", "migrations", "list", binding, ...at]);
      return migrationFiles().filter((name) => listed.includes(name));
    },
    migrate: async (binding) => {
      wrangler(["d1", "migrations", "apply", binding, ...at]);
    },
    close: async () => {},
  };
};

const localStores = async (target: Target, config: string): Promise<SegmentStores> => {
  const { getPlatformProxy } = await import("wrangler");
  const persistTo = path.resolve(target.persistTo ?? path.join(ROOT, ".wrangler", "state"));
  const { env, dispose } = await quietly(() =>
    getPlatformProxy<Record<string, D1Database>>({
      configPath: path.resolve(config),
      persist: { path: path.join(persistTo, "v3") },
      remoteBindings: false,
    }),
  );
  const database = (binding: string) => {
    const found = env[binding];
    if (!found) throw new Error(`${config} binds no D1 database ${binding}.`);
    return found;
  };
  return {
    query: async <Row>(binding: string, sql: string) =>
      (await whileBusy(() => database(binding).prepare(sql).all<Row>())).results,
    run: async (binding, statements) => {
      const db = database(binding);
      await whileBusy(() => db.batch(statements.map((statement) => db.prepare(statement))));
    },
    pendingMigrations: async (binding) => {
      const tables = await whileBusy(() =>
        database(binding).prepare("select name from sqlite_master where name = 'd1_migrations'").all(),
      );
      if (tables.results.length === 0) return migrationFiles();
      const { results } = await whileBusy(() =>
        database(binding).prepare("select name from d1_migrations").all<{ name: string }>(),
      );
      const applied = new Set(results.map(({ name }) => name));
      return migrationFiles().filter((name) => !applied.has(name));
    },
    migrate: async (binding) => {
      await applyLocalMigrations(database(binding));
    },
    close: dispose,
  };
};

/** The target's segment stores on `config`; a local one must be closed (its runtime otherwise keeps this process alive). */
export const openSegmentStores = (target: Target, config: string, cloudflare: Cloudflare): Promise<SegmentStores> =>
  target.remote ? Promise.resolve(remoteStores(target, config, cloudflare.wrangler)) : localStores(target, config);
