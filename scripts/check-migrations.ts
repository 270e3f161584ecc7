// Fails when src/db/schema.ts has changed without `npm run db:generate`: drizzle-kit
// generates into a scratch copy of drizzle/ and must find nothing to add.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

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
  console.log("Migrations in drizzle/ match src/db/schema.ts.");
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
