// The segments of pets of a target (src/db/segments.ts) as the backup and the restore reach
// them: their bindings and database names from wrangler.toml, each database's export, queries and
// the running of a dump, locally through one runtime (getPlatformProxy), remotely through wrangler.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { databaseBlocks, listedSegments } from "../segments/layout";
import { openLocalStores } from "./stores";
import { configOf, localState, type Target, targetArgs } from "./target";
import { wrangler } from "./wrangler";

export type SegmentDatabase = {
  binding: string;
  /** The database's name in wrangler.toml. */
  name: string;
  query: <Row>(sql: string) => Promise<Row[]>;
  /** Runs a dump, read from `file`, as one batch: whole or not at all. */
  runDump: (file: string) => Promise<void>;
};

/** The segments wrangler.toml lists for the target's environment, in order. */
export const listedSegmentNames = (target: Target) => {
  const text = readFileSync(configOf(target), "utf8");
  const blocks = databaseBlocks(text, target.env);
  return listedSegments(text, target.env).map((binding) => ({
    binding,
    name: blocks.find((block) => block.binding === binding)?.name ?? binding,
  }));
};

/** The target's segment databases; `close` when done (a local runtime otherwise keeps this process alive). */
export const openSegmentDatabases = async (
  target: Target,
): Promise<{ databases: SegmentDatabase[]; close: () => Promise<void> }> => {
  const named = listedSegmentNames(target);
  if (target.remote) {
    const at = targetArgs(target);
    const databases = named.map(({ binding, name }) => ({
      binding,
      name,
      query: async <Row>(sql: string) => {
        const [result] = JSON.parse(wrangler(["d1", "execute", binding, ...at, "--json", "--command", sql]));
        return (result?.results ?? []) as Row[];
      },
      runDump: async (file: string) => {
        wrangler(["d1", "execute", binding, ...at, "--file", file, "--yes"]);
      },
    }));
    return { databases, close: async () => {} };
  }
  const stores = await openLocalStores(target);
  const { unstable_splitSqlQuery: splitSql } = await import("wrangler");
  const databases = named.map(({ binding, name }, position) => {
    const database = stores.segments[position];
    if (!database) throw new Error(`wrangler.toml lists ${binding}, which the local runtime does not bind.`);
    return {
      binding,
      name,
      query: async <Row>(sql: string) => (await database.prepare(sql).all<Row>()).results,
      // As `wrangler d1 execute --local --file` runs a file: one batch, whole or not at all.
      runDump: async (file: string) => {
        await database.batch(splitSql(readFileSync(file, "utf8")).map((statement) => database.prepare(statement)));
      },
    };
  });
  return { databases, close: stores.close };
};

/**
 * `wrangler d1 export` of `binding` into `partial`. It takes no --persist-to: locally it is
 * given a copy of the configuration in a scratch folder whose .wrangler/state is the state.
 */
export const exportDatabase = (target: Target, binding: string, partial: string) => {
  if (target.remote) {
    wrangler(["d1", "export", binding, ...targetArgs(target), "--output", partial]);
    return;
  }
  const scratch = mkdtempSync(path.join(tmpdir(), "petstore-backup-"));
  try {
    writeFileSync(path.join(scratch, "wrangler.toml"), readFileSync(configOf(target)));
    mkdirSync(path.join(scratch, ".wrangler"));
    symlinkSync(localState(target), path.join(scratch, ".wrangler", "state"));
    const { persistTo: _, config: __, ...beside } = target;
    const config = ["--config", path.join(scratch, "wrangler.toml")];
    wrangler(["d1", "export", binding, ...targetArgs(beside), ...config, "--output", partial]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};
