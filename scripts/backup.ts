// Backs up the D1 database to a .sql file, and restores one into an empty database.
//
//   npm run --silent backup  -- --output FILE [--env staging|production --remote | --persist-to DIR]
//   npm run --silent restore -- --input FILE  [--env staging|production --remote | --persist-to DIR]
//
// A backup is `wrangler d1 export`: the schema, every row, and the record of the applied
// migrations, so that a restored database takes later migrations as the original would.
// A restore runs the file on a database that has no tables yet (a new D1 database, or a
// fresh local state) and refuses any other: the file's CREATE TABLEs would fail half-way
// on one that has. API keys live in KV, not in the backup, and keep working across a
// restore. For production, D1 Time Travel restores a database in place to any minute of
// the last 30 days (docs/operations.md, "Backing up and restoring data").
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { describeTarget, TARGET_OPTIONS, type Target, targetArgs, targetFrom } from "./target";
import { wrangler } from "./wrangler";

const USAGE = `Usage:
  npm run --silent backup  -- --output FILE [--env staging|production --remote | --persist-to DIR]
  npm run --silent restore -- --input FILE  [--env staging|production --remote | --persist-to DIR]`;

/**
 * `wrangler d1 export` takes no --persist-to: it reads the local state beside the config
 * file. For a --persist-to state, it is given a copy of wrangler.toml in a scratch folder
 * whose .wrangler/state is that state.
 */
const exportDatabase = (target: Target, output: string) => {
  if (target.remote || !target.persistTo) {
    wrangler(["d1", "export", "DB", ...targetArgs(target), "--output", output]);
    return;
  }
  const scratch = mkdtempSync(path.join(tmpdir(), "petstore-backup-"));
  try {
    writeFileSync(path.join(scratch, "wrangler.toml"), readFileSync("wrangler.toml"));
    mkdirSync(path.join(scratch, ".wrangler"));
    symlinkSync(path.resolve(target.persistTo), path.join(scratch, ".wrangler", "state"));
    const { persistTo: _, ...beside } = target;
    wrangler([
      "d1",
      "export",
      "DB",
      ...targetArgs(beside),
      "--config",
      path.join(scratch, "wrangler.toml"),
      "--output",
      path.resolve(output),
    ]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

/** The tables of the target database, the platform's own left out. */
const tablesOf = (target: Target): string[] => {
  const query =
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%'";
  const [result] = JSON.parse(wrangler(["d1", "execute", "DB", ...targetArgs(target), "--json", "--command", query]));
  return (result.results as { name: string }[]).map(({ name }) => name);
};

const restoreDatabase = (target: Target, input: string) => {
  const tables = tablesOf(target);
  if (tables.length > 0) {
    throw new Error(
      `${describeTarget(target, "D1")} is not empty (it has ${tables.join(", ")}): restore into a new database, or use D1 Time Travel to restore this one in place.`,
    );
  }
  wrangler(["d1", "execute", "DB", ...targetArgs(target), "--file", input, "--yes"]);
};

const main = () => {
  const [command] = process.argv.slice(2);
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { ...TARGET_OPTIONS, output: { type: "string" }, input: { type: "string" } },
  });
  const target = targetFrom(values);
  if (command === "backup" && values.output && !values.input) {
    exportDatabase(target, values.output);
    console.error(`Backed up ${describeTarget(target, "D1")} to ${values.output}.`);
  } else if (command === "restore" && values.input && !values.output) {
    restoreDatabase(target, values.input);
    console.error(`Restored ${values.input} into ${describeTarget(target, "D1")}.`);
  } else {
    throw new Error(USAGE);
  }
};

try {
  main();
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
