// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote lines of source, template literals included.
// The sign-in group's survivors (src/auth-server/) that no test can tell apart from the code,
// each with why.

import { alike, type Equivalent } from "./equivalent";

const TOKEN_REQUEST = "src/auth-server/token-request.ts";
const GRANT_REVOCATIONS = "src/auth-server/grant-revocations.ts";
const SIGN_IN = "src/auth-server/sign-in.ts";
const WORKER = "src/auth-server/worker.ts";

export const SIGN_IN_EQUIVALENTS: Equivalent[] = [
  ...alike("src/auth-server/grant-index.ts", "an entry's value is never read: its name is the index", [
    ['kv.put(`${GRANT_INDEX_PREFIX}${keyHash}:${userId}`, "", { expirationTtl: lifetimeS });', '"Stryker was here!"'],
  ]),
  ...alike(
    "src/auth-server/metadata-fetch.ts",
    "an answer without Content-Type fails the pattern with no text in its place",
    [
      [
        'if (response.status === 200 && JSON_TYPE.test(response.headers.get("Content-Type") ?? "")) return response;',
        '"Stryker was here!"',
      ],
    ],
  ),
  ...alike(TOKEN_REQUEST, "a request without Authorization matches Basic's pattern with no text in its place", [
    ['const encoded = /^basic[\\t ]+([A-Za-z0-9+/]+={0,2})$/i.exec(authorization ?? "")?.[1];', '"Stryker was here!"'],
  ]),
  ...alike(TOKEN_REQUEST, "atob(undefined) throws, and the catch below answers as this check does", [
    ["if (encoded === undefined) return undefined;", "false"],
  ]),
  ...alike(TOKEN_REQUEST, "the function gives undefined after the catch either way", [["} catch {", "{}"]]),
  ...alike(
    GRANT_REVOCATIONS,
    "a token or code of another shape names no grant whose tokens or code hash to it: the check saves a KV read, and no answer changes",
    [
      ["if (!userId || !grantId || !secret || rest.length > 0) return undefined;", "false"],
      ["if (!userId || !grantId || !secret || rest.length > 0) return undefined;", "!userId && !grantId"],
      [
        "if (!userId || !grantId || !secret || rest.length > 0) return undefined;",
        "(!userId || !grantId || !secret) && rest.length > 0",
      ],
      ["if (!userId || !grantId || !secret || rest.length > 0) return undefined;", "(!userId || !grantId) && !secret"],
    ],
  ),
  ...alike(TOKEN_REQUEST, "split gives at least one element: its first is never missing", [
    [
      'const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();',
      'request.headers.get("Content-Type")?.split(";")[0].trim',
    ],
  ]),
  ...alike(
    SIGN_IN,
    "a key has one scope or both (scripts/lib/key-records.ts), so a key that may do none of what is asked was asked for one, which is joined with nothing",
    [
      [
        "`That API key does not have the ${asked.map((scope) => `'${scope}'`).join(\" or \")} scope this app asks for; sign in with a key that has it.`;",
        '""',
      ],
    ],
  ),
  ...alike(SIGN_IN, "a request without Content-Type names no form's media type either way", [
    ['const contentType = request.headers.get("Content-Type") ?? "";', '"Stryker was here!"'],
  ]),
  ...alike(SIGN_IN, "split gives at least one element: its first is never missing", [
    ['const type = contentType.split(";")[0]?.trim().toLowerCase();', 'contentType.split(";")[0].trim'],
  ]),
  ...alike(SIGN_IN, "the function gives undefined after the catch either way", [["} catch {", "{}"]]),
  ...alike(
    SIGN_IN,
    "a field that is missing or a file is refused as an empty one is, by the library (no handle) and by the key check (no key of ours): test/worker/mcp/sign-in-form-keys.test.ts",
    [
      ['return typeof value === "string" ? value : "";', "true"],
      ['return typeof value === "string" ? value : "";', '"Stryker was here!"'],
    ],
  ),
  ...alike(
    SIGN_IN,
    "the form's handle is issued only by a page whose request passed this same check (showPage), and the request approved is that one",
    [
      ['if ("unknown" in asked) return refusedRequest(approved.request, "invalid_scope", asked.unknown);', "false"],
      ['if ("unknown" in asked) return refusedRequest(approved.request, "invalid_scope", asked.unknown);', '""'],
    ],
  ),
  ...alike(
    WORKER,
    "the library lets each store's fault on these paths reach this catch, so a noted fault comes with no answer (its one catch, a registration's renewal, is off: no registration TTL)",
    [
      ["if (faults.causes.length === 0 && answer) return answer;", "faults.causes.length === 0 || answer"],
      ["if (faults.causes.length === 0 && answer) return answer;", "true"],
    ],
  ),
  ...alike(WORKER, "validateToken rejects with a store's fault either way, and nothing reads its causes", [
    ["const env = guardStores(this.env, { causes: [] });", "{}"],
    ["const env = guardStores(this.env, { causes: [] });", '["Stryker was here"]'],
  ]),
  ...alike("src/auth-server/stores.ts", "the library reads no property of its KV that is not a method", [
    ['if (typeof call !== "function") return call;', "false"],
  ]),
];
