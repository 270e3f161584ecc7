// The restore group's survivors (scripts/lib/check-dump.ts) that no test can tell apart from
// the code, each with why.

import { alike, type Equivalent, inFile } from "./equivalent";

export const RESTORE_EQUIVALENTS: Equivalent[] = [
  ...inFile("scripts/lib/check-dump.ts", [
    [
      24,
      'sql.replaceAll(/\\s+/g, " ")',
      "SQLite keeps a statement's text from its first token to its last: there is nothing to trim",
    ],
    [29, '""', 'an empty name opens a private temporary database, gone when closed, as ":memory:" is'],
    [59, '""', 'an empty name opens a private temporary database, gone when closed, as ":memory:" is'],
    [33, "{}", "closing the database frees memory that no test can see"],
    [34, ";", "closing the database frees memory that no test can see"],
    [130, "{}", "closing the database frees memory that no test can see"],
    [131, ";", "closing the database frees memory that no test can see"],
    [59, "{}", "a second lock: the authorizer refuses load_extension before SQLite would"],
    [59, "true", "a second lock: the authorizer refuses load_extension before SQLite would"],
    [60, "false", "a second lock: the authorizer refuses every pragma but two, writable_schema among them"],
    [150, "{}", "the tests run from the root, and a spawn's streams are pipes by default"],
    [138, '""', "node finds tsx from the check's own folder as from the root: the folders between hold no other"],
    [152, "[]", "a spawn's streams are pipes by default"],
    [158, "true", "the check's process writes RUNNING alone before it runs the dump: one timer is set either way"],
    [
      158,
      "timer === undefined || output.stdout.startsWith(RUNNING)",
      "the check's process writes RUNNING alone before it runs the dump: one timer is set either way",
    ],
    [
      158,
      "output.stdout.endsWith(RUNNING)",
      "the check's process writes RUNNING alone before it runs the dump: its first chunk is RUNNING",
    ],
    [173, ";", "after the process closed, its timer kills a process and rejects a promise that have ended already"],
    [175, "true", "the exit code is null only after the timer's SIGKILL, whose rejection came first"],
    [175, "output.stderr", "the check's process writes its message without a line break"],
    [
      175,
      "``",
      "the check's process says why on stderr whenever it fails: the fallback is for a crash that says nothing",
    ],
    [
      180,
      "true",
      "imported by a test, the block reads a file its process was not given, and only writes to its stderr",
    ],
    [
      180,
      "process.argv[1] || import.meta.url === pathToFileURL(process.argv[1]).href",
      "imported by a test, the block reads a file its process was not given, and only writes to its stderr",
    ],
    [182, '"Stryker was here!"', "a file that is not there is refused as the empty path is"],
  ]),
  // The names of the codes 0 to 2, which the filter keeps from OK, DENY and IGNORE: no refused
  // action has one (COPY is none SQLite sends; CREATE_INDEX and CREATE_TABLE are allowed, and
  // temporary ones have codes of their own), and every constant's name starts with SQLITE_.
  ...alike(
    "scripts/lib/check-dump.ts",
    "no action the authorizer refuses has a code from 0 to 2, and every constant's name starts with SQLITE_",
    [
      [52, "Object.entries(constants)"],
      [53, "true"],
      [53, 'name.startsWith("SQLITE_") || !["SQLITE_OK", "SQLITE_DENY", "SQLITE_IGNORE"].includes(name)'],
      [53, '""'],
      [53, "[]"],
    ],
  ),
];
