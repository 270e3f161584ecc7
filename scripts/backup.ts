// Backs up the D1 database to a .sql file, and restores one into an empty database.
//
//   npm run --silent backup  -- --output FILE [--force] [--env staging|production --remote | --persist-to DIR]
//   npm run --silent restore -- --input FILE  [--env staging|production --remote | --persist-to DIR]
//
// A backup is `wrangler d1 export`: the schema, every row, and the record of the applied
// migrations, so that a restored database takes later migrations as the original would.
// It refuses to write over a file without --force, and a local state that holds no D1.
// A restore first runs the file on a database in memory (scripts/lib/check-dump.ts) and
// refuses one that does not build every table and index of the migrations; then it runs
// it on a database that has no tables yet (a new D1 database, or a fresh local state),
// refusing any other, and prints each table's rows as the database then counts them.
// API keys live in KV, not in the backup, and keep working across a restore. For
// production, D1 Time Travel restores a database in place to any minute of the last 30
// days (docs/operations.md, "Backing up and restoring data").
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { countRowsQuery } from "./lib/check-dump";
import { type Outcome, runAsCommand } from "./lib/command";
import { checkTimeLimitMs, inspectDumpInTime } from "./lib/dump-check-process";
import { openLocalStores, openStores, type Stores } from "./lib/stores";
import { describeTarget, TARGET_OPTIONS, type Target, targetArgs, targetFrom } from "./lib/target";
import { wrangler } from "./lib/wrangler";

const USAGE = `Usage:
  npm run --silent backup  -- --output FILE [--force] [--env staging|production --remote | --persist-to DIR]
  npm run --silent restore -- --input FILE  [--env staging|production --remote | --persist-to DIR]`;

/** Where wrangler keeps a local state's D1 databases. */
const localD1 = (target: Target) =>
  path.resolve(target.persistTo ?? path.join(import.meta.dirname, "..", ".wrangler", "state"), "v3", "d1");

/**
 * `wrangler d1 export` into a file beside `output`, renamed onto it once whole. It takes no
 * --persist-to: for a --persist-to state it is given a copy of wrangler.toml in a scratch
 * folder whose .wrangler/state is that state.
 */
const exportDatabase = (target: Target, output: string) => {
  const partial = `${path.resolve(output)}.partial`;
  const scratch = mkdtempSync(path.join(tmpdir(), "petstore-backup-"));
  try {
    if (target.remote || !target.persistTo) {
      wrangler(["d1", "export", "DB", ...targetArgs(target), "--output", partial]);
    } else {
      writeFileSync(path.join(scratch, "wrangler.toml"), readFileSync("wrangler.toml"));
      mkdirSync(path.join(scratch, ".wrangler"));
      symlinkSync(path.resolve(target.persistTo), path.join(scratch, ".wrangler", "state"));
      const { persistTo: _, ...beside } = target;
      const config = ["--config", path.join(scratch, "wrangler.toml")];
      wrangler(["d1", "export", "DB", ...targetArgs(beside), ...config, "--output", partial]);
    }
    renameSync(partial, output);
  } finally {
    rmSync(partial, { force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
};

/** Backs up the target's database to `output`; returns what it did, throws what it refused. */
export const backUp = (target: Target, output: string, force: boolean): string => {
  if (existsSync(output) && !force)
    throw new Error(`${output} exists: name another file, or add --force to replace it.`);
  if (!target.remote && !existsSync(localD1(target))) {
    throw new Error(`${describeTarget(target, "D1")} holds no D1 database (no ${localD1(target)}): is that the state?`);
  }
  exportDatabase(target, output);
  return `Backed up ${describeTarget(target, "D1")} to ${output}.`;
};

const TABLES_QUERY =
  "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%'";

/** The target's database: its stores, for queries, and how a dump runs on it. */
const openDatabase = async (target: Target, input: string, dump: string) => {
  if (target.remote) {
    const runDump = async () => {
      wrangler(["d1", "execute", "DB", ...targetArgs(target), "--file", input, "--yes"]);
    };
    return { stores: (await openStores(target)) as Stores, runDump };
  }
  const stores = await openLocalStores(target);
  // As `wrangler d1 execute --local --file` runs a file: one batch, whole or not at all.
  const runDump = async () => {
    const { unstable_splitSqlQuery: splitSql } = await import("wrangler");
    await stores.database.batch(splitSql(dump).map((statement) => stores.database.prepare(statement)));
  };
  return { stores, runDump };
};

/** Restores `input` into the target's empty database; returns what it restored, throws what it refused. */
export const restore = async (target: Target, input: string): Promise<string> => {
  const dump = readFileSync(input, "utf8");
  const { rows } = await inspectDumpInTime(input, checkTimeLimitMs(Buffer.byteLength(dump)));
  const { stores, runDump } = await openDatabase(target, input, dump);
  try {
    const tables = (await stores.query<{ name: string }>(TABLES_QUERY)).map(({ name }) => name);
    if (tables.length > 0) {
      throw new Error(
        `${describeTarget(target, "D1")} is not empty (it has ${tables.join(", ")}): restore into a new database, or use D1 Time Travel to restore this one in place.`,
      );
    }
    await runDump();
    const counted = await stores.query<{ name: string; count: number }>(countRowsQuery(Object.keys(rows)));
    const differ = counted.filter(({ name, count }) => rows[name] !== count);
    const counts = counted.map(({ name, count }) => `${name} ${count}`).join(", ");
    if (differ.length > 0 || counted.length !== Object.keys(rows).length) {
      throw new Error(`Restored ${input}, but the database counts ${counts}, not what the file holds: check it.`);
    }
    return `Restored ${input} into ${describeTarget(target, "D1")}: ${counts} rows.`;
  } finally {
    await stores.close();
  }
};

/** Runs `npm run backup` or `npm run restore` (the command first, then its options): what it says on stderr. */
export const runBackup = async (args: string[]): Promise<Outcome> => {
  const [command, ...options] = args;
  const { values } = parseArgs({
    args: options,
    options: {
      ...TARGET_OPTIONS,
      output: { type: "string" },
      input: { type: "string" },
      force: { type: "boolean", default: false },
    },
  });
  const target = targetFrom(values);
  if (command === "backup" && values.output && !values.input) {
    return { said: backUp(target, values.output, values.force), printed: [] };
  }
  if (command === "restore" && values.input && !values.output && !values.force) {
    return { said: await restore(target, values.input), printed: [] };
  }
  throw new Error(USAGE);
};

runAsCommand(import.meta.url, runBackup);
