// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote lines of source, template literals included.
// The restore group's survivors (scripts/lib/check-dump.ts, dump-check-process.ts) that no test can tell apart from
// the code, each with why.

import { alike, type Equivalent, inFile } from "./equivalent";

export const RESTORE_EQUIVALENTS: Equivalent[] = [
  ...inFile("scripts/lib/check-dump.ts", [
    [
      'return new Map(rows.map(({ type, name, sql }) => [`${type} ${name}`, sql.replaceAll(/\\s+/g, " ").trim()]));',
      'sql.replaceAll(/\\s+/g, " ")',
      "SQLite keeps a statement's text from its first token to its last: there is nothing to trim",
    ],
    [
      'const db = new DatabaseSync(":memory:");',
      '""',
      'an empty name opens a private temporary database, gone when closed, as ":memory:" is',
    ],
    [
      'const db = new DatabaseSync(":memory:", { allowExtension: false });',
      '""',
      'an empty name opens a private temporary database, gone when closed, as ":memory:" is',
    ],
    ["} finally {", "{}", "closing the database frees memory that no test can see"],
    ["db.close();", ";", "closing the database frees memory that no test can see"],
    ["} finally {", "{}", "closing the database frees memory that no test can see"],
    ["db.close();", ";", "closing the database frees memory that no test can see"],
    [
      'const db = new DatabaseSync(":memory:", { allowExtension: false });',
      "{}",
      "a second lock: the authorizer refuses load_extension before SQLite would",
    ],
    [
      'const db = new DatabaseSync(":memory:", { allowExtension: false });',
      "true",
      "a second lock: the authorizer refuses load_extension before SQLite would",
    ],
    [
      "db.enableDefensive(true);",
      "false",
      "a second lock: the authorizer refuses every pragma but two, writable_schema among them",
    ],
  ]),
  ...inFile("scripts/lib/dump-check-process.ts", [
    [
      'const check = spawn(process.execPath, ["--import", "tsx", import.meta.filename, file], {',
      "{}",
      "the tests run from the root, and a spawn's streams are pipes by default",
    ],
    [
      'const ROOT = path.resolve(import.meta.dirname, "../..");',
      '""',
      "node finds tsx from the check's own folder as from the root: the folders between hold no other",
    ],
    ['stdio: ["ignore", "pipe", "pipe"],', "[]", "a spawn's streams are pipes by default"],
    [
      "if (timer === undefined && output.stdout.startsWith(RUNNING)) {",
      "true",
      "the check's process writes RUNNING alone before it runs the dump: one timer is set either way",
    ],
    [
      "if (timer === undefined && output.stdout.startsWith(RUNNING)) {",
      "timer === undefined || output.stdout.startsWith(RUNNING)",
      "the check's process writes RUNNING alone before it runs the dump: one timer is set either way",
    ],
    [
      "if (timer === undefined && output.stdout.startsWith(RUNNING)) {",
      "output.stdout.endsWith(RUNNING)",
      "the check's process writes RUNNING alone before it runs the dump: its first chunk is RUNNING",
    ],
    [
      "clearTimeout(timer);",
      ";",
      "after the process closed, its timer kills a process and rejects a promise that have ended already",
    ],
    [
      "else if (code !== null) reject(new Error(output.stderr.trim() || `The dump's check failed (exit ${code}).`));",
      "true",
      "the exit code is null only after the timer's SIGKILL, whose rejection came first",
    ],
    [
      "else if (code !== null) reject(new Error(output.stderr.trim() || `The dump's check failed (exit ${code}).`));",
      "output.stderr",
      "the check's process writes its message without a line break",
    ],
    [
      "else if (code !== null) reject(new Error(output.stderr.trim() || `The dump's check failed (exit ${code}).`));",
      "``",
      "the check's process says why on stderr whenever it fails: the fallback is for a crash that says nothing",
    ],
    [
      "if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {",
      "true",
      "imported by a test, the block reads a file its process was not given, and only writes to its stderr",
    ],
    [
      "if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {",
      "process.argv[1] || import.meta.url === pathToFileURL(process.argv[1]).href",
      "imported by a test, the block reads a file its process was not given, and only writes to its stderr",
    ],
    [
      'const sql = readFileSync(process.argv[2] ?? "", "utf8");',
      '"Stryker was here!"',
      "a file that is not there is refused as the empty path is",
    ],
  ]),
  // The names of the codes 0 to 2, which the filter keeps from OK, DENY and IGNORE: no refused
  // action has one (COPY is none SQLite sends; CREATE_INDEX and CREATE_TABLE are allowed, and
  // temporary ones have codes of their own), and every constant's name starts with SQLITE_.
  ...alike(
    "scripts/lib/check-dump.ts",
    "no action the authorizer refuses has a code from 0 to 2, and every constant's name starts with SQLITE_",
    [
      ["Object.entries(constants)", "Object.entries(constants)"],
      [
        '.filter(([name]) => name.startsWith("SQLITE_") && !["SQLITE_OK", "SQLITE_DENY", "SQLITE_IGNORE"].includes(name))',
        "true",
      ],
      [
        '.filter(([name]) => name.startsWith("SQLITE_") && !["SQLITE_OK", "SQLITE_DENY", "SQLITE_IGNORE"].includes(name))',
        'name.startsWith("SQLITE_") || !["SQLITE_OK", "SQLITE_DENY", "SQLITE_IGNORE"].includes(name)',
      ],
      [
        '.filter(([name]) => name.startsWith("SQLITE_") && !["SQLITE_OK", "SQLITE_DENY", "SQLITE_IGNORE"].includes(name))',
        '""',
      ],
      [
        '.filter(([name]) => name.startsWith("SQLITE_") && !["SQLITE_OK", "SQLITE_DENY", "SQLITE_IGNORE"].includes(name))',
        "[]",
      ],
    ],
  ),
];
