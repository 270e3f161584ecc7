// What a backup holds, found before it is restored: the dump is run on an empty SQLite
// database in memory (node:sqlite), and what that builds is compared with what the
// migrations of drizzle/ build, every table, index and trigger, and with their record. A dump is
// a stranger's file: SQLite's authorizer lets it do only what a dump does, so that no
// statement reaches the disk (ATTACH, VACUUM INTO) or loads code (load_extension); a NUL
// byte, before which SQLite would stop reading, is refused; and the check runs in a process
// of its own, ended at a time limit (./dump-check-process.ts), as nothing in node:sqlite can
// interrupt a statement that runs too long.
import { readFileSync } from "node:fs";
import path from "node:path";
import { constants, DatabaseSync } from "node:sqlite";
import { MIGRATIONS_DIR, migrationFiles } from "./local-migrations";

/** The tables, indexes and triggers of a database, by name, each with its SQL in one spacing; the platform's own left out. */
const schemaOf = (db: DatabaseSync): Map<string, string> => {
  const rows = db
    .prepare(
      `select type, name, sql from sqlite_master where type in ('table', 'index', 'trigger') and sql is not null
       and name not like 'sqlite_%' and name not like '_cf_%' and name != 'd1_migrations'`,
    )
    .all() as { type: string; name: string; sql: string }[];
  return new Map(rows.map(({ type, name, sql }) => [`${type} ${name}`, sql.replaceAll(/\s+/g, " ").trim()]));
};

/** What the migrations build, in order, on an empty database. */
export const migratedSchema = (): Map<string, string> => {
  const db = new DatabaseSync(":memory:");
  try {
    for (const file of migrationFiles()) db.exec(readFileSync(path.join(MIGRATIONS_DIR, file), "utf8"));
    return schemaOf(db);
  } finally {
    db.close();
  }
};

/** What `wrangler d1 export` writes: tables, indexes and rows, on the main database alone; and the migrations' triggers (below). */
const DUMP_ACTIONS = new Set([
  constants.SQLITE_CREATE_TABLE,
  constants.SQLITE_CREATE_INDEX,
  constants.SQLITE_INSERT,
  constants.SQLITE_UPDATE,
  constants.SQLITE_READ,
  constants.SQLITE_SELECT,
  constants.SQLITE_DELETE,
  constants.SQLITE_REINDEX,
  constants.SQLITE_TRANSACTION,
]);
const DUMP_PRAGMAS = new Set(["defer_foreign_keys", "foreign_keys"]);
const ACTION_NAMES = new Map(
  Object.entries(constants)
    .filter(([name]) => name.startsWith("SQLITE_") && !["SQLITE_OK", "SQLITE_DENY", "SQLITE_IGNORE"].includes(name))
    .map(([name, code]) => [code, name.slice(7)]),
);

/** The triggers the migrations create: the only ones a dump may. */
const migrationTriggers = () => {
  const names = [...migratedSchema().keys()].filter((name) => name.startsWith("trigger "));
  return new Set(names.map((name) => name.slice("trigger ".length)));
};

/** An in-memory database that runs only what a dump does; `refused` names the first statement it would not. */
const dumpDatabase = () => {
  const triggers = migrationTriggers();
  const db = new DatabaseSync(":memory:", { allowExtension: false });
  db.enableDefensive(true);
  const refused: string[] = [];
  db.setAuthorizer((action, first, second, database) => {
    const allowed =
      database !== "temp" &&
      (DUMP_ACTIONS.has(action) ||
        (action === constants.SQLITE_CREATE_TRIGGER && triggers.has(String(first))) ||
        (action === constants.SQLITE_PRAGMA && DUMP_PRAGMAS.has(String(first).toLowerCase())) ||
        (action === constants.SQLITE_FUNCTION && second !== "load_extension"));
    if (!allowed) refused.push(`${ACTION_NAMES.get(action) ?? action}${first ? ` ${first}` : ""}`);
    return allowed ? constants.SQLITE_OK : constants.SQLITE_DENY;
  });
  return { db, refused };
};

/** The rows in each table of `tables`, in one query. */
export const countRowsQuery = (tables: string[]) =>
  tables.map((table) => `select '${table}' as name, count(*) as count from "${table}"`).join(" union all ");

export type DumpContents = {
  /** Each table's rows, the migrations' record left out. */
  rows: Record<string, number>;
  /** Which segment of pets the dump is (src/db/segments.ts): none for a database that was never made one. */
  segment?: { position: number; closedAt: number | null };
  /** The lowest and highest id of its pets, null when it has none. */
  ids: { first: number | null; last: number | null };
};

/**
 * Runs the dump in memory and returns each table's rows; throws, saying what is wrong,
 * for a dump that does not run, lacks a table or an index the migrations build, has one
 * they do not, or records other migrations than drizzle/ holds.
 */
export const inspectDump = (sql: string): DumpContents => {
  const nul = sql.indexOf("\0");
  if (nul !== -1) {
    throw new Error(
      `The dump holds a NUL byte (at character ${nul}), which no export has: SQLite would read only what comes before it. Nothing was restored.`,
    );
  }
  const { db, refused } = dumpDatabase();
  try {
    try {
      db.exec(sql);
    } catch (error) {
      if (refused.length > 0) {
        throw new Error(
          `The dump does what no backup does (${refused[0]}): refused before it ran. Nothing was restored.`,
        );
      }
      throw new Error(`The dump does not run: ${(error as Error).message}. Nothing was restored.`);
    }
    const expected = migratedSchema();
    const found = schemaOf(db);
    const missing = [...expected.keys()].filter((name) => !found.has(name));
    const extra = [...found.keys()].filter((name) => !expected.has(name));
    const changed = [...expected.keys()].filter((name) => found.has(name) && found.get(name) !== expected.get(name));
    const hasRecord = db.prepare("select 1 from sqlite_master where name = 'd1_migrations'").get() !== undefined;
    const recorded = hasRecord
      ? (db.prepare("select name from d1_migrations order by id").all() as { name: string }[]).map(({ name }) => name)
      : [];
    const problems = [
      ...(missing.length > 0 ? [`it lacks ${missing.join(", ")}`] : []),
      ...(extra.length > 0 ? [`it has ${extra.join(", ")}, which the migrations do not build`] : []),
      ...(changed.length > 0 ? [`${changed.join(", ")} differ from what the migrations build`] : []),
      ...(recorded.join() === migrationFiles().join()
        ? []
        : [`it records the migrations ${recorded.join(", ") || "(none)"}, not ${migrationFiles().join(", ")}`]),
    ];
    if (problems.length > 0) {
      throw new Error(`The dump is incomplete or not of this schema: ${problems.join("; ")}. Nothing was restored.`);
    }
    const tables = [...expected.keys()].filter((name) => name.startsWith("table ")).map((name) => name.slice(6));
    const counted = db.prepare(countRowsQuery(tables)).all() as { name: string; count: number }[];
    const segment = db.prepare("select position, closed_at as closedAt from segment").get() as
      | { position: number; closedAt: number | null }
      | undefined;
    const ids = db.prepare("select min(id) as first, max(id) as last from pets").get() as DumpContents["ids"];
    return {
      rows: Object.fromEntries(counted.map(({ name, count }) => [name, count])),
      ...(segment && { segment: { ...segment } }),
      ids: { ...ids },
    };
  } finally {
    db.close();
  }
};
