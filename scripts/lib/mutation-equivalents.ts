// The survivors of `npm run test:mutation` (scripts/lib/mutation-groups.ts) that no test can
// tell apart from the code, each with why: the run leaves them out of its count.

/** A survivor that no test can tell apart from the code: where, what it becomes, and why. */
export type Equivalent = { file: string; line: number; replacement: string; why: string };

/** One file's equivalents, each place as [line, replacement, why]. */
const inFile = (file: string, places: [number, string, string][]): Equivalent[] =>
  places.map(([line, replacement, why]) => ({ file, line, replacement, why }));

/** One file's equivalents that share one reason, each place as [line, replacement]. */
const alike = (file: string, why: string, places: [number, string][]): Equivalent[] =>
  inFile(
    file,
    places.map(([line, replacement]) => [line, replacement, why]),
  );

export const EQUIVALENTS: Equivalent[] = [
  {
    file: "src/mcp/arguments.ts",
    line: 55,
    replacement: '"Stryker was here!"',
    why: "a repeated member's path ends in its own name: the fallback is never read",
  },
  {
    file: "src/mcp/door.ts",
    line: 59,
    replacement: "false",
    why: "without the binding, the call on it throws inside the try that answers 503, as the check does",
  },
  {
    file: "src/mcp/door.ts",
    line: 71,
    replacement: "granted.scope",
    why: "a scope that is neither read nor write is never asked for by any route, so keeping it changes nothing",
  },
  {
    file: "src/mcp/versions.ts",
    line: 47,
    replacement: "false",
    why: "bytes that are not UTF-8 decode then to U+FFFD, which no tool's name holds: refused either way",
  },
  {
    file: "src/mcp/versions.ts",
    line: 93,
    replacement: "false",
    why: "a missing Mcp-Name decodes to undefined, which is no tool's name: refused either way",
  },
  {
    file: "src/mcp/versions.ts",
    line: 50,
    replacement: "{}",
    why: "an empty catch returns undefined, as the return it replaces does",
  },
  {
    file: "client/src/retry.ts",
    line: 16,
    replacement: "false",
    why: "null then reads as the text 'null', which is neither a number of seconds nor a date: undefined all the same",
  },
  {
    file: "client/src/retry.ts",
    line: 27,
    replacement: "signal.reason",
    why: "abort runs only as the signal's listener, or when it has aborted: the signal is always there",
  },
  {
    file: "client/src/retry.ts",
    line: 34,
    replacement: "{}",
    why: "an AbortSignal fires abort once at most, so a listener kept after it runs never runs again",
  },
  {
    file: "client/src/retry.ts",
    line: 34,
    replacement: "false",
    why: "an AbortSignal fires abort once at most, so a listener kept after it runs never runs again",
  },
  {
    file: "client/src/checks.ts",
    line: 14,
    replacement: "true",
    why: "Number.isSafeInteger is false for anything that is not a number already",
  },
  {
    file: "client/src/checks.ts",
    line: 20,
    replacement: "/^https?:/",
    why: "a URL's protocol is its scheme and one colon: nothing can follow 'http:' or 'https:' in it",
  },
  ...alike(
    "src/keys/address-group.ts",
    "an address without ':' falls through to the same answer: fewer than four groups, returned as sent",
    [
      [10, "false"],
      [10, '""'],
    ],
  ),
  ...alike(
    "src/keys/address-group.ts",
    "the group it adds lands past the first four, which are all the /64 is made of, or makes a malformed address one that is returned as sent, as it was",
    [
      [13, '"Stryker was here!"'],
      [15, '["Stryker was here"]'],
      [16, '["Stryker was here"]'],
    ],
  ),
  {
    file: "src/keys/address-group.ts",
    line: 23,
    replacement: '""',
    why: "every request without CF-Connecting-IP counts under one name, whichever it is",
  },
  {
    file: "src/keys/api-key.ts",
    line: 110,
    replacement: "byte <= 248",
    why: "one byte value in 249 more for one character: a bias no test could see without millions of keys",
  },
  {
    file: "src/keys/verify.ts",
    line: 123,
    replacement: ";",
    why: "a known key is read from knownKeys first, and an unknown entry lives 5 s, never as long as a known one's 60",
  },
  {
    file: "src/keys/verify.ts",
    line: 155,
    replacement: "true",
    why: "setting the hash it already holds again changes nothing",
  },
  {
    file: "client/src/checks.ts",
    line: 50,
    replacement: "{}",
    why: "an empty catch returns undefined, as the return it replaces does",
  },
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
