// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote lines of source, template literals included.
// The survivors of `npm run test:mutation` (scripts/lib/mutation-groups.ts) that no test can
// tell apart from the code, each with why: the run leaves them out of its count. Those of the
// later groups are in a file per group, beside this one.

import { alike, type Equivalent } from "./equivalent";
import { HTTP_EQUIVALENTS } from "./http-equivalents";
import { PETS_EQUIVALENTS } from "./pets-equivalents";
import { RESTORE_EQUIVALENTS } from "./restore-equivalents";
import { SIGN_IN_EQUIVALENTS } from "./sign-in-equivalents";

export const EQUIVALENTS: Equivalent[] = [
  ...alike(
    "src/mcp/tool.ts",
    "the verdict on no arguments is the schema's own on {}, reached once per isolate: checking {} each time gives the same",
    [
      [
        "const result = Object.keys(args as object).length === 0 ? onEmpty() : safeParse(spec.arguments, args);",
        "false",
      ],
    ],
  ),
  {
    file: "src/mcp/key-or-token-auth.ts",
    code: 'if (!service) throw unavailable("Signing in");',
    replacement: "false",
    why: "without the binding, the call on it throws inside the try that answers 503, as the check does",
  },
  {
    file: "src/mcp/key-or-token-auth.ts",
    code: "admit(c, verdict, now, TOKEN_REFUSALS, granted.scope.filter(isScope));",
    replacement: "granted.scope",
    why: "a scope that is neither read nor write is never asked for by any route, so keeping it changes nothing",
  },
  {
    file: "src/mcp/versions.ts",
    code: 'return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(',
    replacement: "false",
    why: "bytes that are not UTF-8 decode then to U+FFFD, which no tool's name holds: refused either way",
  },
  {
    file: "src/mcp/versions.ts",
    code: "if (name === undefined || decoded(name) !== params.name)",
    replacement: "false",
    why: "a missing Mcp-Name decodes to undefined, which is no tool's name: refused either way",
  },
  {
    file: "src/mcp/versions.ts",
    code: "} catch {",
    replacement: "{}",
    why: "an empty catch returns undefined, as the return it replaces does",
  },
  {
    file: "client/src/retry.ts",
    code: "if (value === null) return undefined;",
    replacement: "false",
    why: "null then reads as the text 'null', which is neither a number of seconds nor a date: undefined all the same",
  },
  {
    file: "client/src/retry.ts",
    code: "reject(signal?.reason);",
    replacement: "signal.reason",
    why: "abort runs only as the signal's listener, or when it has aborted: the signal is always there",
  },
  {
    file: "client/src/retry.ts",
    code: 'signal?.addEventListener("abort", abort, { once: true });',
    replacement: "{}",
    why: "an AbortSignal fires abort once at most, so a listener kept after it runs never runs again",
  },
  {
    file: "client/src/retry.ts",
    code: 'signal?.addEventListener("abort", abort, { once: true });',
    replacement: "false",
    why: "an AbortSignal fires abort once at most, so a listener kept after it runs never runs again",
  },
  {
    file: "client/src/checks.ts",
    code: 'typeof value === "number" && Number.isSafeInteger(value) && value >= least;',
    replacement: "true",
    why: "Number.isSafeInteger is false for anything that is not a number already",
  },
  {
    file: "client/src/checks.ts",
    code: "if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) {",
    replacement: "/^https?:/",
    why: "a URL's protocol is its scheme and one colon: nothing can follow 'http:' or 'https:' in it",
  },
  ...alike(
    "src/keys/address-group.ts",
    "an address without ':' falls through to the same answer: fewer than four groups, returned as sent",
    [
      ['if (!address.includes(":")) return address;', "false"],
      ['if (!address.includes(":")) return address;', '""'],
    ],
  ),
  ...alike(
    "src/keys/address-group.ts",
    "the group it adds lands past the first four, which are all the /64 is made of, or makes a malformed address one that is returned as sent, as it was",
    [
      ['const [head = "", tail = ""] = address.split("::");', '"Stryker was here!"'],
      ['const tailGroups = tail ? tail.split(":") : [];', '["Stryker was here"]'],
      [
        'const zeros = address.includes("::") ? Array(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill("0") : [];',
        '["Stryker was here"]',
      ],
    ],
  ),
  {
    file: "src/keys/address-group.ts",
    code: 'export const addressOf = (request: Request) => addressGroup(request.headers.get("CF-Connecting-IP") ?? "unknown");',
    replacement: '""',
    why: "every request without CF-Connecting-IP counts under one name, whichever it is",
  },
  {
    file: "src/keys/api-key.ts",
    code: "if (byte < 248 && random.length < RANDOM_CHARACTERS) random += ALPHABET[byte % 62];",
    replacement: "byte <= 248",
    why: "one byte value in 249 more for one character: a bias no test could see without millions of keys",
  },
  {
    file: "src/keys/verify.ts",
    code: "unknownKeys.delete(hash);",
    replacement: ";",
    why: "a known key is read from knownKeys first, and an unknown entry lives 5 s, never as long as a known one's 60",
  },
  ...alike(
    "src/keys/verify.ts",
    "a credential checked as a key always starts with ps_live_ or ps_test_ (/v1's door and /mcp's route by it) and an access token never does; the sign-in Worker, which checks any text pasted as a key, remembers no token: the two kinds never meet in one isolate's cache, space or no space",
    [
      [
        [
          'const entryOf = (kind: "key" | "token", credential: string) => (kind === "key" ? credential : ` ${credential}`);',
          65,
        ],
        "true",
      ],
      [
        [
          'const entryOf = (kind: "key" | "token", credential: string) => (kind === "key" ? credential : ` ${credential}`);',
          65,
        ],
        "false",
      ],
      [
        [
          'const entryOf = (kind: "key" | "token", credential: string) => (kind === "key" ? credential : ` ${credential}`);',
          65,
        ],
        'kind !== "key"',
      ],
      [
        [
          'const entryOf = (kind: "key" | "token", credential: string) => (kind === "key" ? credential : ` ${credential}`);',
          74,
        ],
        '""',
      ],
    ],
  ),
  {
    file: "client/src/checks.ts",
    code: "} catch {",
    replacement: "{}",
    why: "an empty catch returns undefined, as the return it replaces does",
  },
  ...RESTORE_EQUIVALENTS,
  ...HTTP_EQUIVALENTS,
  ...PETS_EQUIVALENTS,
  ...SIGN_IN_EQUIVALENTS,
];
