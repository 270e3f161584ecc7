// Applies drizzle/'s migrations to a local D1 database as `wrangler d1 migrations apply
// --local` does (and wrangler's own test harness, through a binding as here): the same
// bookkeeping table, rows and order, so that either sees what the other applied.
// `npm run dev` applies them so through the runtime it opens anyway for its key, instead
// of a wrangler process of its own (about 7 s of CPU). test/node/scripts/migrations.test.ts checks
// that wrangler.toml still names this folder and wrangler's default table.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../..", "drizzle");
const TABLE = "d1_migrations";

/** The migrations of drizzle/, by file name, in the order they apply. */
export const migrationFiles = () =>
  readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith(".sql"))
    .sort();

/** Applies the migrations that `db` has not recorded yet, in order, each with its record; returns their names. */
export const applyLocalMigrations = async (db: D1Database): Promise<string[]> => {
  const { unstable_splitSqlQuery: splitSql } = await import("wrangler");
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS ${TABLE}(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
    )
    .run();
  const { results } = await db.prepare(`SELECT name FROM ${TABLE}`).all<{ name: string }>();
  const applied = new Set(results.map(({ name }) => name));
  const pending = migrationFiles().filter((name) => !applied.has(name));
  for (const name of pending) {
    const sql = `${readFileSync(path.join(MIGRATIONS_DIR, name), "utf8")}\nINSERT INTO ${TABLE} (name) values ('${name.replaceAll("'", "''")}');`;
    await db.batch(splitSql(sql).map((statement) => db.prepare(statement)));
  }
  return pending;
};
