// The sign-in group's survivors (src/auth-server/) that no test can tell apart from the code,
// each with why.

import { alike, type Equivalent } from "./equivalent";

const TOKEN_REQUEST = "src/auth-server/token-request.ts";

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
];
