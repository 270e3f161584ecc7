// The sign-in group's survivors (src/auth-server/) that no test can tell apart from the code,
// each with why.

import { alike, type Equivalent } from "./equivalent";

const TOKEN_REQUEST = "src/auth-server/token-request.ts";
const SIGN_IN = "src/auth-server/sign-in.ts";
const WORKER = "src/auth-server/worker.ts";

export const SIGN_IN_EQUIVALENTS: Equivalent[] = [
  ...alike("src/auth-server/grant-index.ts", "an entry's value is never read: its name is the index", [
    [16, '"Stryker was here!"'],
  ]),
  ...alike(
    "src/auth-server/metadata-fetch.ts",
    "an answer without Content-Type fails the pattern with no text in its place",
    [[19, '"Stryker was here!"']],
  ),
  ...alike(TOKEN_REQUEST, "a request without Authorization matches Basic's pattern with no text in its place", [
    [23, '"Stryker was here!"'],
  ]),
  ...alike(TOKEN_REQUEST, "atob(undefined) throws, and the catch below answers as this check does", [[24, "false"]]),
  ...alike(TOKEN_REQUEST, "the function gives undefined after the catch either way", [[29, "{}"]]),
  ...alike(
    TOKEN_REQUEST,
    "a token of another shape names no grant whose previous token hashes to it: the check saves a KV read, and no answer changes",
    [
      [40, "false"],
      [40, "!userId && !grantId"],
      [40, "(!userId || !grantId || !secret) && rest.length > 0"],
      [40, "(!userId || !grantId) && !secret"],
    ],
  ),
  ...alike(TOKEN_REQUEST, "split gives at least one element: its first is never missing", [
    [62, 'request.headers.get("Content-Type")?.split(";")[0].trim'],
  ]),
  ...alike(
    SIGN_IN,
    "a key has one scope or both (scripts/lib/key-records.ts), so a key that may do none of what is asked was asked for one, which is joined with nothing",
    [[78, '""']],
  ),
  ...alike(SIGN_IN, "a request without Content-Type names no form's media type either way", [
    [88, '"Stryker was here!"'],
  ]),
  ...alike(SIGN_IN, "split gives at least one element: its first is never missing", [
    [89, 'contentType.split(";")[0].trim'],
  ]),
  ...alike(SIGN_IN, "the function gives undefined after the catch either way", [[95, "{}"]]),
  ...alike(
    SIGN_IN,
    "a field that is missing or a file is refused as an empty one is, by the library (no handle) and by the key check (no key of ours): test/worker/mcp/sign-in-form-keys.test.ts",
    [
      [106, "true"],
      [106, '"Stryker was here!"'],
    ],
  ),
  ...alike(
    SIGN_IN,
    "the form's handle is issued only by a page whose request passed this same check (showPage), and the request approved is that one",
    [
      [123, "false"],
      [123, '""'],
    ],
  ),
  ...alike(
    WORKER,
    "the library lets each store's fault on these paths reach this catch, so a noted fault comes with no answer (its one catch, a registration's renewal, is off: no registration TTL)",
    [
      [59, "faults.causes.length === 0 || answer"],
      [59, "true"],
    ],
  ),
  ...alike(WORKER, "validateToken rejects with a store's fault either way, and nothing reads its causes", [
    [66, "{}"],
    [66, '["Stryker was here"]'],
  ]),
  ...alike("src/auth-server/stores.ts", "the library reads no property of its KV that is not a method", [
    [31, "false"],
  ]),
];
