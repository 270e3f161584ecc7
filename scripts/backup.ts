// Backs up the D1 databases to .sql files, one per segment of pets (src/db/segments.ts), and
// restores them into empty databases.
//
//   npm run --silent backup  -- --output FILE [--force] [--env staging|production --remote | --persist-to DIR] [--config FILE]
//   npm run --silent restore -- --input FILE [--input FILE ...] [--env staging|production --remote | --persist-to DIR] [--config FILE]
//
// The first segment's file is FILE; the others are named by ./lib/segment-set.ts (a closed
// segment's once, kept for later backups), and a restore takes them together, refusing files
// that are not one backup of the target's segments.
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
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { countRowsQuery } from "./lib/check-dump";
import { type Outcome, runAsCommand } from "./lib/command";
import { checkTimeLimitMs, inspectDumpInTime } from "./lib/dump-check-process";
import { nearest, parseOptions } from "./lib/options";
import { exportDatabase, openSegmentDatabases, type SegmentDatabase } from "./lib/segment-databases";
import { segmentFile, segmentSetProblems } from "./lib/segment-set";
import { describeTarget, localState, TARGET_OPTIONS, type Target, targetFrom } from "./lib/target";

const USAGE = `Usage:
  npm run --silent backup  -- --output FILE [--force] [--env staging|production --remote | --persist-to DIR] [--config FILE]
  npm run --silent restore -- --input FILE [--input FILE ...] [--env staging|production --remote | --persist-to DIR] [--config FILE]`;

/** Where wrangler keeps a local state's D1 databases. */
const localD1 = (target: Target) => path.join(localState(target), "v3", "d1");

/** Whether each of `databases` is a closed segment, which no longer changes. */
const closedStates = (databases: SegmentDatabase[]) =>
  Promise.all(
    databases.map(
      async ({ query }) =>
        (await query<{ closed_at: number | null }>("select closed_at from segment"))[0]?.closed_at != null,
    ),
  );

/**
 * Backs up the target's segments, the first to `output` (./lib/segment-set.ts names the
 * others); returns what it did, throws what it refused before writing anything.
 */
export const backUp = async (target: Target, output: string, force: boolean): Promise<string> => {
  if (!target.remote && !existsSync(localD1(target))) {
    throw new Error(`${describeTarget(target, "D1")} holds no D1 database (no ${localD1(target)}): is that the state?`);
  }
  const { databases, close } = await openSegmentDatabases(target);
  let closed: boolean[];
  try {
    closed = await closedStates(databases);
  } finally {
    await close();
  }
  const files = databases.map(({ name }, position) =>
    segmentFile(output, position, { closed: position > 0 && (closed[position] ?? false), name }),
  );
  const kept = files.filter((file, position) => position > 0 && closed[position] && existsSync(file));
  const written = files.filter((file) => !kept.includes(file));
  const existing = written.filter((file) => existsSync(file));
  if (existing.length > 0 && !force) {
    const [one, them] = existing.length === 1 ? ["exists", "it"] : ["exist", "them"];
    throw new Error(`${existing.join(", ")} ${one}: name another file, or add --force to replace ${them}.`);
  }
  // Every file is exported beside its name first, and renamed onto it only once all are whole:
  // a backup that fails leaves the files as they were.
  const partials = written.map((file) => `${path.resolve(file)}.partial`);
  // Only what this run began is removed after it: never a file it did not write.
  const begun: string[] = [];
  try {
    databases.forEach(({ binding }, position) => {
      const partial = partials[written.indexOf(files[position] as string)];
      if (partial === undefined) return;
      if (!existsSync(partial)) begun.push(partial);
      exportDatabase(target, binding, partial);
    });
  } catch (error) {
    for (const partial of begun) rmSync(partial, { force: true });
    throw new Error(`${(error as Error).message.trimEnd()}\nNo backup file was written.`);
  }
  const renamed: string[] = [];
  try {
    for (const [index, file] of written.entries()) {
      renameSync(partials[index] as string, file);
      renamed.push(file);
    }
  } catch (error) {
    const which = renamed.length > 0 ? `only ${renamed.join(", ")} replaced` : "no backup file was written";
    throw new Error(`${(error as Error).message}: ${which}; the others are beside them, as .partial.`);
  }
  const rest = written.length > 1 ? ` and ${written.slice(1).join(", ")}` : "";
  const keptNote = kept.length > 0 ? `; kept ${kept.join(", ")} of closed segments, from an earlier backup` : "";
  return `Backed up ${describeTarget(target, "D1")} to ${output}${rest}${keptNote}.`;
};

const TABLES_QUERY =
  "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%'";

/**
 * Restores `inputs`, a backup's file per segment, into the target's empty segments; returns
 * what it restored, throws what it refused, before writing anything when it can.
 */
export const restore = async (target: Target, inputs: string[]): Promise<string> => {
  for (const file of inputs) {
    if (existsSync(file)) continue;
    const folder = path.dirname(file);
    const files = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".sql")) : [];
    const near = nearest(path.basename(file), files);
    throw new Error(
      `There is no file ${file}${near ? `: did you mean ${path.join(folder, near)}?` : "."} Nothing was restored.`,
    );
  }
  const dumps = [];
  for (const file of inputs) {
    const bytes = Buffer.byteLength(readFileSync(file));
    dumps.push({ file, contents: await inspectDumpInTime(file, checkTimeLimitMs(bytes)) });
  }
  const { databases, close } = await openSegmentDatabases(target);
  try {
    const problems = segmentSetProblems(dumps, databases.length);
    if (problems.length > 0)
      throw new Error(
        `The files are not one backup of this target's segments: ${problems.join("; ")}. Nothing was restored.`,
      );
    const ordered = [...dumps].sort(
      (a, b) => (a.contents.segment?.position ?? 0) - (b.contents.segment?.position ?? 0),
    );
    for (const { binding, query } of databases) {
      const tables = (await query<{ name: string }>(TABLES_QUERY)).map(({ name }) => name);
      if (tables.length > 0) {
        throw new Error(
          `${describeTarget(target, "D1")} is not empty (${binding} has ${tables.join(", ")}): restore into a new database, or use D1 Time Travel to restore this one in place.`,
        );
      }
    }
    const lines: string[] = [];
    for (const [position, { file, contents }] of ordered.entries()) {
      const database = databases[position] as SegmentDatabase;
      try {
        await database.runDump(file);
      } catch (error) {
        // Each file runs whole or not at all: those before it are restored, it and those after it not.
        const done = lines.length > 0 ? ` ${lines.join(" ")} The others were not restored.` : " Nothing was restored.";
        throw new Error(`Restoring ${file} into ${database.binding} failed: ${(error as Error).message}.${done}`);
      }
      const counted = await database.query<{ name: string; count: number }>(countRowsQuery(Object.keys(contents.rows)));
      const differ = counted.filter(({ name, count }) => contents.rows[name] !== count);
      const counts = counted.map(({ name, count }) => `${name} ${count}`).join(", ");
      if (differ.length > 0 || counted.length !== Object.keys(contents.rows).length) {
        throw new Error(`Restored ${file}, but the database counts ${counts}, not what the file holds: check it.`);
      }
      const into = databases.length > 1 ? ` (${database.binding})` : "";
      lines.push(`Restored ${file} into ${describeTarget(target, "D1")}${into}: ${counts} rows.`);
    }
    return lines.join("\n");
  } finally {
    await close();
  }
};

/** Runs `npm run backup` or `npm run restore` (the command first, then its options): what it says on stderr. */
export const runBackup = async (args: string[]): Promise<Outcome> => {
  const [command, ...options] = args;
  const { values } = parseOptions(
    {
      args: options,
      options: {
        ...TARGET_OPTIONS,
        output: { type: "string" },
        input: { type: "string", multiple: true },
        force: { type: "boolean", default: false },
        // A configuration that lists other segments than wrangler.toml (as `npm run segment:open --config` leaves one).
        config: { type: "string" },
      },
    },
    USAGE,
  );
  const target = { ...targetFrom(values), config: values.config };
  if (command === "backup" && values.output && !values.input) {
    return { said: await backUp(target, values.output, values.force), printed: [] };
  }
  if (command === "restore" && values.input && !values.output && !values.force) {
    return { said: await restore(target, values.input), printed: [] };
  }
  throw new Error(USAGE);
};

runAsCommand(import.meta.url, runBackup);
