import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { unapprovedDestructiveMigrations } from "../../../scripts/check-migrations";
import { MIGRATIONS_DIR } from "../../../scripts/lib/local-migrations";

// The rule that keeps a deploy safe while migrations run before the new code: nothing the
// version still serving may use is dropped or renamed without an explicit approval.

const folder = mkdtempSync(path.join(tmpdir(), "petstore-migrations-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// What drizzle-kit generates for SQLite: a dropped column, and the table rebuild it writes
// when a column's type or constraint changes.
const DROPPED_COLUMN = "ALTER TABLE `pets` DROP COLUMN `category_id`;";
const REBUILT_TABLE = [
  "PRAGMA foreign_keys=OFF;",
  "CREATE TABLE `__new_pets` (`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL, `name` text NOT NULL);",
  'INSERT INTO `__new_pets`("id", "name") SELECT "id", "name" FROM `pets`;',
  "DROP TABLE `pets`;",
  "ALTER TABLE `__new_pets` RENAME TO `pets`;",
].join("--> statement-breakpoint\n");
const ADDED_COLUMN = "ALTER TABLE `pets` ADD `tag` text;";

describe("the migration check", () => {
  it("finds no unapproved drop or rename in drizzle/", () => {
    expect(unapprovedDestructiveMigrations("drizzle")).toEqual([]);
  });

  it("refuses a dropped column and a rebuilt table, and passes an added column", () => {
    writeFileSync(path.join(folder, "0004_drop.sql"), DROPPED_COLUMN);
    writeFileSync(path.join(folder, "0005_rebuild.sql"), REBUILT_TABLE);
    writeFileSync(path.join(folder, "0006_add.sql"), ADDED_COLUMN);
    expect(unapprovedDestructiveMigrations(folder)).toEqual([
      { file: "0004_drop.sql", statement: DROPPED_COLUMN },
      {
        file: "0005_rebuild.sql",
        statement: 'INSERT INTO `__new_pets`("id", "name") SELECT "id", "name" FROM `pets`;',
      },
    ]);
  });

  it("passes a destructive migration that is approved with its reason", () => {
    const approved = { "0004_drop.sql": "category_id unused since 1.4", "0005_rebuild.sql": "name only since 1.5" };
    expect(unapprovedDestructiveMigrations(folder, approved)).toEqual([]);
  });
});

// scripts/lib/local-migrations.ts applies drizzle/ locally as wrangler does, which holds while
// wrangler.toml names the same folder and wrangler's default bookkeeping table.
describe("npm run dev's migrations", () => {
  it("come from the folder and go into the table that wrangler uses for every environment", async () => {
    const { unstable_readConfig: readConfig } = await import("wrangler");
    for (const env of [undefined, "staging", "production"]) {
      const [database] = readConfig({ config: "wrangler.toml", env }).d1_databases;
      expect(path.resolve(database?.migrations_dir ?? ""), env).toBe(MIGRATIONS_DIR);
      expect(database?.migrations_table ?? "d1_migrations", env).toBe("d1_migrations");
    }
  });
});
