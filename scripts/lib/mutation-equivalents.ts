// The survivors of `npm run test:mutation` (scripts/lib/mutation-groups.ts) that no test can
// tell apart from the code, each with why: the run leaves them out of its count. Those of the
// later groups are in a file per group, beside this one.

import { alike, type Equivalent } from "./equivalent";
import { HTTP_EQUIVALENTS } from "./http-equivalents";
import { PETS_EQUIVALENTS } from "./pets-equivalents";
import { RESTORE_EQUIVALENTS } from "./restore-equivalents";
import { SIGN_IN_EQUIVALENTS } from "./sign-in-equivalents";

export const EQUIVALENTS: Equivalent[] = [
  {
    file: "src/mcp/arguments.ts",
    line: 64,
    replacement: '"Stryker was here!"',
    why: "a repeated member's path ends in its own name: the fallback is never read",
  },
  ...alike(
    "src/mcp/arguments.ts",
    "the verdict on no arguments is the schema's own on {}, reached once per isolate: checking {} each time gives the same",
    [
      [51, "false"],
      [52, "false"],
    ],
  ),
  {
    file: "src/mcp/key-or-token-auth.ts",
    line: 59,
    replacement: "false",
    why: "without the binding, the call on it throws inside the try that answers 503, as the check does",
  },
  {
    file: "src/mcp/key-or-token-auth.ts",
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
    line: 113,
    replacement: "byte <= 248",
    why: "one byte value in 249 more for one character: a bias no test could see without millions of keys",
  },
  {
    file: "src/keys/verify.ts",
    line: 125,
    replacement: ";",
    why: "a known key is read from knownKeys first, and an unknown entry lives 5 s, never as long as a known one's 60",
  },
  ...alike(
    "src/keys/verify.ts",
    "a credential checked as a key always starts with ps_live_ or ps_test_ (/v1's door and /mcp's route by it) and an access token never does; the sign-in Worker, which checks any text pasted as a key, remembers no token: the two kinds never meet in one isolate's cache, space or no space",
    [
      ["67:65", "true"],
      ["67:65", "false"],
      ["67:65", 'kind !== "key"'],
      ["67:74", '""'],
    ],
  ),
  {
    file: "client/src/checks.ts",
    line: 50,
    replacement: "{}",
    why: "an empty catch returns undefined, as the return it replaces does",
  },
  ...RESTORE_EQUIVALENTS,
  ...HTTP_EQUIVALENTS,
  ...PETS_EQUIVALENTS,
  ...SIGN_IN_EQUIVALENTS,
];
