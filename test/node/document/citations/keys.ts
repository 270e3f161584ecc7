// The tests that docs/keys.md cites (./citation.ts says what each entry holds).
import { type Citation, edit } from "./citation";

export const KEYS: Citation[] = [
  {
    page: "docs/keys.md",
    test: "test/worker/keys/api-keys.test.ts",
    claim: "pins one value against zlib's",
    shownBy: ["end with the CRC32 of all before it, in base 62 padded to 6 characters, as a scanner can check"],
    breaks: [edit("src/keys/api-key.ts", "return (crc ^ 0xffffffff) >>> 0;", "return (crc ^ 0xfffffffe) >>> 0;")],
  },
  {
    page: "docs/keys.md",
    test: "test/worker/keys/key-policy.test.ts",
    claim: "counts zero binding calls for 100 of them",
    shownBy: ["is refused 401 with no KV read and no limiter call, however often it is sent"],
    breaks: [
      edit(
        "src/keys/api-key.ts",
        "return checksumOf(body) === token.slice(-CHECKSUM_CHARACTERS);",
        "return checksumOf(body).length > 0;",
      ),
    ],
  },
  {
    page: "docs/keys.md",
    test: "test/worker/keys/key-expiration-header.test.ts",
    claim: "as GitHub does for expiring tokens",
    shownBy: ["carries a key's expiry as an HTTP date on its answers, errors past authentication included"],
    breaks: [
      edit(
        "src/http/api-key-auth.ts",
        "declareOwnHeader(c, KEY_EXPIRATION_HEADER, new Date(key.expiresAt).toUTCString())",
        "declareOwnHeader(c, KEY_EXPIRATION_HEADER, String(key.expiresAt))",
      ),
    ],
  },
  {
    page: "docs/keys.md",
    test: "test/worker/faults/faults.test.ts",
    claim: "keeps working there for the outage's length",
    shownBy: ["keeps a key this isolate verified within 10 minutes working, and no longer"],
    breaks: [
      edit(
        "src/keys/verify.ts",
        "export const KV_FAULT_GRACE_MS = 10 * 60_000;",
        "export const KV_FAULT_GRACE_MS = 20 * 60_000;",
      ),
    ],
  },
  {
    page: "docs/keys.md",
    test: "test/e2e/local/operator-scripts.test.ts",
    claim: "a rolled key and the old one both work during the overlap, and after it only the new one",
    shownBy: [
      "key:roll issues a key with the same label and scopes; both work during the overlap, then only the new one",
    ],
    breaks: [
      edit(
        "scripts/lib/key-roll.ts",
        "const oldExpiry = Math.min(oldEnd, now + overlapMs);",
        "const oldExpiry = Math.min(oldEnd, now + 2 * overlapMs);",
      ),
    ],
  },
  {
    page: "docs/keys.md",
    test: "test/e2e/local/operator-scripts.test.ts",
    claim: "two rolls of one key at once leave one successor",
    shownBy: [
      "roll a key once when two rolls run at the same time: one successor, and the other roll says so and removes its key",
    ],
    breaks: [
      edit(
        "scripts/lib/key-roll.ts",
        "const after = await lostTo().catch(",
        "const after = await Promise.resolve<string | undefined>(undefined).catch(",
      ),
      // Both checks, or an interleaving where the second roll starts after the first's claim still catches it.
      edit("scripts/lib/key-roll.ts", "const before = await lostTo();", "const before = undefined;"),
    ],
  },
  {
    page: "docs/keys.md",
    test: "test/worker/keys/auth-cache.test.ts",
    claim: "That an isolate keeps a record it read up to 60 s",
    shownBy: ["refuses a revoked key once KNOWN_KEY_TTL_MS has passed"],
    breaks: [
      edit(
        "src/keys/api-key.ts",
        "export const KNOWN_KEY_TTL_MS = 60_000;",
        "export const KNOWN_KEY_TTL_MS = 120_000;",
      ),
    ],
  },
  {
    page: "docs/keys.md",
    test: "test/worker/keys/key-policy.test.ts",
    claim: "the expiry from its instant on, likewise",
    shownBy: ["refuses the key from its instant on, saying it expired, also while this isolate holds its record"],
    breaks: [
      edit("src/keys/api-key.ts", "!(now < Date.parse(record.expiresAt))", "!(now <= Date.parse(record.expiresAt))"),
    ],
  },
  {
    page: "docs/keys.md",
    test: "test/worker/keys/auth-cache.test.ts",
    claim: "1,000 random well-formed keys from one address within one limiter window cost 60 KV reads",
    shownBy: [
      "gets 429 with Retry-After once past 60 unknown keys a minute, and costs that many KV reads for 1000 guesses",
    ],
    breaks: [
      edit(
        "src/keys/verify.ts",
        'isWithinLimit(stores, "AUTH_FAILURE_LIMITER", addressOf(checkContext.from), checkContext)',
        'isWithinLimit(stores, "AUTH_FAILURE_LIMITER", crypto.randomUUID(), checkContext)',
      ),
    ],
  },
  {
    page: "docs/keys.md",
    test: "test/worker/keys/key-policy.test.ts",
    claim: "an expiry instant is still checked on every request, during an outage too",
    shownBy: ["is not extended while KV fails, though a key verified lately is served from the cache then"],
    breaks: [edit("src/keys/verify.ts", "if (hasExpired(found, now))", "if (false && hasExpired(found, now))")],
  },
  {
    page: "docs/keys.md",
    test: "test/worker/keys/key-policy.test.ts",
    claim: "reads use `cacheTtl: 60`",
    shownBy: ["is read from KV with cacheTtl 60: KV's edge cache adds at most 60 s to an isolate's (docs/keys.md)"],
    breaks: [edit("src/keys/api-key.ts", "export const KV_CACHE_TTL_S = 60;", "export const KV_CACHE_TTL_S = 30;")],
  },
  {
    page: "docs/keys.md",
    test: "test/e2e/local/operator-scripts.test.ts",
    claim: "running it again finishes it",
    shownBy: [
      "key:grants lists the grants that signing in with a key made, and revokes them; a failed write is said, and undone by running it again",
    ],
    breaks: [edit("scripts/lib/key-grants.ts", "      await store.delete(name);\n", "")],
  },
  {
    page: "docs/keys.md",
    test: "test/node/scripts/while-busy.test.ts",
    claim: "meets the server's lock on those files is made again",
    shownBy: [
      "is made again while it fails as busy, up to the 5th try",
      "fails with the 5th busy failure, not a 6th try",
      "fails at once with any other failure",
    ],
    breaks: [edit("scripts/lib/while-busy.ts", "export const BUSY_ATTEMPTS = 5;", "export const BUSY_ATTEMPTS = 4;")],
  },
];
