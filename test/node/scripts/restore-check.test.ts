import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectDump } from "../../../scripts/lib/check-dump";

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
    ["load_extension", "SELECT load_extension('/tmp/evil.so');", /FUNCTION/],
    ["a trigger", "CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN SELECT 1; END;", /CREATE_TRIGGER/],
    ["a pragma that writes", "PRAGMA writable_schema=ON;", /PRAGMA writable_schema/],
    ["a temporary table", "CREATE TEMP TABLE s (a);", /sqlite_temp_master/],
  ])("that holds %s is refused", (_, statement, named) => {
    expect(() => inspectDump(`${PRELUDE}${statement}`)).toThrow(named);
  });
});
