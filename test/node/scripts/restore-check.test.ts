import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectDump } from "../../../scripts/lib/check-dump";
import { checkTimeLimitMs, inspectDumpInTime } from "../../../scripts/lib/dump-check-process";
import { MIGRATIONS_DIR, migrationFiles } from "../../../scripts/lib/local-migrations";

// The restore's check runs a stranger's file in node:sqlite before anything is restored:
// a crafted dump must not reach the disk or load code from that check. Each statement is
// put after a whole dump's worth of valid SQL, as one would hide it.

const scratch = mkdtempSync(path.join(tmpdir(), "crafted-dump-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PRELUDE =
  "PRAGMA defer_foreign_keys=TRUE;\nCREATE TABLE t (id integer primary key);\nINSERT INTO t VALUES (1);\n";

describe("a crafted dump", () => {
  it.each([
    ["ATTACH", (file: string) => `ATTACH '${file}' AS elsewhere;`],
    ["VACUUM INTO", (file: string) => `VACUUM INTO '${file}';`],
    ["ATTACH, then a table there", (file: string) => `ATTACH '${file}' AS e; CREATE TABLE e.x (a);`],
  ])("that tries %s is refused, and no file is written", (_, statement) => {
    const file = path.join(scratch, `${_.replaceAll(/\W/g, "-")}.db`);
    expect(() => inspectDump(`${PRELUDE}${statement(file)}`)).toThrow(
      /^The dump does what no backup does \(ATTACH .*\): refused before it ran\. Nothing was restored\.$/,
    );
    expect(existsSync(file)).toBe(false);
  });

  it.each([
    // Named as a pragma a dump may set: refused all the same, as no pragma.
    ["a view", "CREATE VIEW foreign_keys AS SELECT 1;", "CREATE_VIEW foreign_keys"],
    ["a dropped table", "DROP TABLE t;", "DROP_TABLE t"],
    ["load_extension", "SELECT load_extension('/tmp/evil.so');", "FUNCTION"],
    ["a trigger", "CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN SELECT 1; END;", "CREATE_TRIGGER t_ai"],
    ["a pragma that writes", "PRAGMA writable_schema=ON;", "PRAGMA writable_schema"],
    ["a temporary table", "CREATE TEMP TABLE s (a);", "INSERT sqlite_temp_master"],
  ])("that holds %s is refused, naming what it does", (_, statement, named) => {
    expect(() => inspectDump(`${PRELUDE}${statement}`)).toThrow(
      `The dump does what no backup does (${named}): refused before it ran. Nothing was restored.`,
    );
  });
});

/** A dump of an empty database as the migrations build it, with their record, as an export writes one. */
const EMPTY_DUMP = [
  ...migrationFiles().map((file) => readFileSync(path.join(MIGRATIONS_DIR, file), "utf8")),
  "CREATE TABLE d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP);",
  ...migrationFiles().map((file) => `INSERT INTO d1_migrations (name) VALUES ('${file}');`),
].join("\n");
const dumpFile = (name: string, sql: string) => {
  const file = path.join(scratch, name);
  writeFileSync(file, sql);
  return file;
};

describe("the check's comparison with what the migrations build", () => {
  it("takes a dump spaced otherwise, with the pragmas an export writes, in either case", () => {
    const respaced = EMPTY_DUMP.replaceAll(/[ \t]+/g, "  \t ").replaceAll("\n", " \n\n ");
    const dump = `PRAGMA FOREIGN_KEYS=OFF;\nPRAGMA defer_foreign_keys=TRUE;\n${respaced}`;
    expect(inspectDump(dump).rows).toEqual({
      pets: 0,
      idempotency_keys: 0,
      deprecated_calls: 0,
      api_key_last_used: 0,
      segment: 0,
    });
  });

  it("refuses a dump that lacks an index, has a table more, builds one otherwise, or records other migrations, naming each", () => {
    const [last, ...others] = migrationFiles().toReversed();
    const dump = EMPTY_DUMP.replace(/^CREATE INDEX `pets_status_id_idx`.*$/m, "")
      .replace(/^CREATE INDEX `deprecated_calls_day_idx`.*$/m, "")
      // Within a literal, a space changes what the table allows.
      .replace("'sold'", "'so ld'")
      .replace("`api_key_hash` text PRIMARY KEY NOT NULL", "`api_key_hash` blob PRIMARY KEY NOT NULL")
      .replace(
        `INSERT INTO d1_migrations (name) VALUES ('${last}');`,
        "CREATE TABLE extra (a); CREATE TABLE more (b);",
      );
    expect(() => inspectDump(dump)).toThrow(
      `The dump is incomplete or not of this schema: it lacks index pets_status_id_idx, index deprecated_calls_day_idx; it has table extra, table more, which the migrations do not build; table pets, table api_key_last_used differ from what the migrations build; it records the migrations ${others.toReversed().join(", ")}, not ${migrationFiles().join(", ")}. Nothing was restored.`,
    );
    const unrecorded = EMPTY_DUMP.split("\n").filter((line) => !line.includes("d1_migrations"));
    expect(() => inspectDump(unrecorded.join("\n"))).toThrow(
      `The dump is incomplete or not of this schema: it records the migrations (none), not ${migrationFiles().join(", ")}. Nothing was restored.`,
    );
  });

  it("refuses a dump that does not run, with SQLite's reason", () => {
    expect(() => inspectDump(`${EMPTY_DUMP}\nCREATE TABLE (;`)).toThrow(
      'The dump does not run: near "(": syntax error. Nothing was restored.',
    );
  });
});

describe("the check's reading of a dump", () => {
  it("reads the whole of it: a NUL byte, before which SQLite would stop, is refused", () => {
    expect(inspectDump(EMPTY_DUMP).rows).toMatchObject({ pets: 0 });
    const hidden = `SELECT 1 /* \0 */;\n${EMPTY_DUMP}\nCREATE TRIGGER t_ai AFTER INSERT ON pets BEGIN SELECT 1; END;`;
    expect(() => inspectDump(hidden)).toThrow(
      "The dump holds a NUL byte (at character 12), which no export has: SQLite would read only what comes before it. Nothing was restored.",
    );
  });

  it("may take 10 s, and 1 s more per MiB begun", () => {
    expect(checkTimeLimitMs(0)).toBe(10_000);
    expect(checkTimeLimitMs(1)).toBe(11_000);
    expect(checkTimeLimitMs(2 ** 20)).toBe(11_000);
    expect(checkTimeLimitMs(2 ** 20 + 1)).toBe(12_000);
  });

  it("gives up at its time limit, ending the check's process, with a clear message", async () => {
    const values = `(VALUES ${Array.from({ length: 100 }, (_, i) => `(${i})`).join(",")})`;
    const endless = dumpFile("endless.sql", `${EMPTY_DUMP}\nSELECT count(*) FROM ${Array(5).fill(values).join(", ")};`);
    await expect(inspectDumpInTime(endless, 1_000)).rejects.toThrow(
      "The dump's check did not finish within 1 s: no export takes that long to run. Nothing was restored.",
    );
  });

  it("in its own process, gives what the dump holds, or what is wrong with it", async () => {
    const { rows } = await inspectDumpInTime(dumpFile("empty.sql", EMPTY_DUMP), 600_000);
    expect(rows).toMatchObject({ pets: 0 });
    // Exactly the check's own message: nothing of the process's output before or around it.
    await expect(inspectDumpInTime(dumpFile("nul.sql", `SELECT 1 /* \0 */;`), 600_000)).rejects.toThrow(
      /^The dump holds a NUL byte \(at character 12\), which no export has: SQLite would read only what comes before it\. Nothing was restored\.$/,
    );
  });
});
