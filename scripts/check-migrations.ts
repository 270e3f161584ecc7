// Three checks of drizzle/, run by `npm run check:migrations` (a step of `npm test`),
// which print one line when they pass and what failed when one does:
// - drizzle-kit's own check of its journal and snapshots (`drizzle-kit check`);
// - src/db/schema.ts has not changed without `npm run db:generate`: drizzle-kit generates
//   into a scratch copy of drizzle/ and must find nothing to add;
// - no migration drops or renames anything unless it is approved below. A deploy applies
//   the migrations before the new code takes traffic, so every migration must work with
//   the version still serving: add first, remove in a later release (docs/operations.md, "Migrations run before the new code").
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Migrations allowed to drop or rename, by file name, each with the reason the serving
 * version no longer uses what it removes. Empty: none so far.
 */
const APPROVED_DESTRUCTIVE_MIGRATIONS: Record<string, string> = {};

// What breaks the version still serving: a dropped or renamed table or column, and the
// table rebuild that drizzle-kit writes for SQLite when a column changes type or constraint.
const DESTRUCTIVE = [/\bDROP\s+(TABLE|COLUMN|INDEX|VIEW|TRIGGER)\b/i, /\bRENAME\b/i, /\bINSERT\s+INTO\s+[`"]?__new_/i];

/** The migrations in `folder` that drop or rename something without approval, with the statement that does. */
export const unapprovedDestructiveMigrations = (folder: string, approved = APPROVED_DESTRUCTIVE_MIGRATIONS) =>
  readdirSync(folder)
    .filter((file) => file.endsWith(".sql") && !(file in approved))
    .flatMap((file) => {
      const statement = readFileSync(path.join(folder, file), "utf8")
        .split("--> statement-breakpoint")
        .find((text) => DESTRUCTIVE.some((pattern) => pattern.test(text)));
      return statement ? [{ file, statement: statement.trim().split("\n")[0] ?? "" }] : [];
    });

const checkJournal = () => {
  const result = spawnSync("npx", ["drizzle-kit", "check", "--config", "drizzle.config.ts"], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`drizzle-kit check failed:\n${result.stdout}${result.stderr}`);
};

const checkGenerated = () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "petstore-migrations-"));
  try {
    cpSync("drizzle", scratch, { recursive: true });
    const before = readdirSync(scratch).length;
    const result = spawnSync(
      "npx",
      [
        "drizzle-kit",
        "generate",
        "--dialect",
        "sqlite",
        "--schema",
        "./src/db/schema.ts",
        "--casing",
        "snake_case",
        "--out",
        scratch,
      ],
      { encoding: "utf8" },
    );
    if (result.status !== 0) throw new Error(`drizzle-kit generate failed:\n${result.stdout}${result.stderr}`);
    if (readdirSync(scratch).length !== before) {
      throw new Error("src/db/schema.ts and drizzle/ disagree: run `npm run db:generate` and commit the migration.");
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    checkJournal();
    checkGenerated();
    const unsafe = unapprovedDestructiveMigrations("drizzle");
    if (unsafe.length > 0) {
      throw new Error(
        `${unsafe.map(({ file, statement }) => `drizzle/${file}: ${statement}`).join("\n")}\nThese drop or rename what the version still serving may use: add first, remove in a later release, and list the migration with its reason in APPROVED_DESTRUCTIVE_MIGRATIONS (scripts/check-migrations.ts).`,
      );
    }
    console.log("Migrations in drizzle/ match src/db/schema.ts, and none drops or renames without approval.");
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
