// The documented numbers, each nudged by `npm run test:mutation` one step up and one down
// (scripts/lib/nudge-numbers.ts): StrykerJS has no mutator for a number literal, so these are
// the mutants it cannot make. Each nudge must fail the tests of its group. A step is the unit
// the docs state the number in (a day for a retention in days, a second for a cache in seconds).

import { constant, duration, type NudgeGroup, share, timeLimit } from "./nudge-forms";

export const NUDGE_GROUPS: Record<string, NudgeGroup> = {
  keys: {
    tests: ["test/worker/keys", "test/worker/faults/faults.test.ts"],
    nudges: [
      constant("src/keys/verify.ts", "UNKNOWN_KEY_TTL_MS", "5_000", "6_000", "4_000"),
      constant("src/keys/verify.ts", "KV_FAULT_GRACE_MS", "10 * 60_000", "11 * 60_000", "9 * 60_000"),
      constant("src/keys/verify.ts", "KV_READ_DEADLINE_MS", "3000", "3001", "2999"),
      constant("src/keys/api-key.ts", "KNOWN_KEY_TTL_MS", "60_000", "61_000", "59_000"),
      constant("src/keys/api-key.ts", "KV_CACHE_TTL_S", "60", "61", "59"),
      constant("src/keys/last-used.ts", "WRITE_DEADLINE_MS", "5_000", "5_001", "4_999"),
      constant("src/keys/last-used.ts", "PAUSE_AFTER_FAILURE_MS", "60_000", "61_000", "59_000"),
      constant("src/lib/limiters.ts", "LIMITER_DEADLINE_MS", "1000", "1001", "999"),
      constant("src/core/error-codes.ts", "UNAVAILABLE_RETRY_AFTER_S", "3", "4", "2"),
      // The throttle of attempts with keys the isolate does not know, per address and minute.
      {
        file: "wrangler.toml",
        from: 'namespace_id = "1100"\nsimple = { limit = 60, period = 60 }',
        up: 'namespace_id = "1100"\nsimple = { limit = 61, period = 60 }',
        down: 'namespace_id = "1100"\nsimple = { limit = 59, period = 60 }',
      },
    ],
  },
  http: {
    tests: ["test/worker/http", "test/worker/pets/create-pet-body.test.ts", "test/node/lib"],
    nudges: [
      constant("src/http/json-body.ts", "MAX_BODY_BYTES", "64 * 1024", "64 * 1024 + 1", "64 * 1024 - 1"),
      constant("src/lib/json-ambiguity.ts", "MAX_JSON_DEPTH", "32", "33", "31"),
      constant("src/http/validate.ts", "MAX_NAMED_PROBLEMS", "3", "4", "2"),
      constant("src/http/request-log.ts", "REQUEST_ID_MAX_LENGTH", "128", "129", "127"),
      constant("src/http/cors.ts", "PREFLIGHT_MAX_AGE_S", "7200", "7201", "7199"),
    ],
  },
  pets: {
    tests: ["test/worker/pets"],
    nudges: [
      constant("src/schemas.ts", "NAME_MAX_LENGTH", "255", "256", "254"),
      constant("src/schemas.ts", "IDEMPOTENCY_KEY_MAX_LENGTH", "255", "256", "254"),
      {
        file: "src/schemas.ts",
        from: "LIST_LIMIT = { min: 1, max: 100, default: 20 }",
        up: "LIST_LIMIT = { min: 1, max: 101, default: 20 }",
        down: "LIST_LIMIT = { min: 1, max: 99, default: 20 }",
      },
      {
        file: "src/schemas.ts",
        from: "LIST_LIMIT = { min: 1, max: 100, default: 20 }",
        up: "LIST_LIMIT = { min: 1, max: 100, default: 21 }",
        down: "LIST_LIMIT = { min: 1, max: 100, default: 19 }",
      },
      {
        file: "src/schemas.ts",
        from: "LIST_LIMIT = { min: 1, max: 100, default: 20 }",
        up: "LIST_LIMIT = { min: 2, max: 100, default: 20 }",
        down: "LIST_LIMIT = { min: 0, max: 100, default: 20 }",
      },
      constant("src/core/cursor.ts", "MIN_SECRET_BYTES", "32", "33", "31"),
      constant(
        "src/core/queries.ts",
        "IDEMPOTENCY_WINDOW_MS",
        "24 * 60 * 60 * 1000",
        "25 * 60 * 60 * 1000",
        "23 * 60 * 60 * 1000",
      ),
    ],
  },
  "sign-in": {
    tests: ["test/worker/mcp"],
    nudges: [
      constant("src/auth-server/lifetimes.ts", "ACCESS_TOKEN_TTL_S", "900", "901", "899"),
      constant(
        "src/auth-server/lifetimes.ts",
        "REFRESH_TOKEN_TTL_S",
        "30 * 24 * 3600",
        "31 * 24 * 3600",
        "29 * 24 * 3600",
      ),
      constant("src/auth-server/lifetimes.ts", "SHORTEST_TTL_S", "60", "61", "59"),
      constant("src/auth-server/token-request.ts", "MAX_TOKEN_REQUEST_BYTES", "16_384", "16_385", "16_383"),
      constant("src/auth-server/sign-in.ts", "MAX_FORM_BYTES", "16_384", "16_385", "16_383"),
      constant("src/auth-server/strangers.ts", "MAX_REGISTRATION_BYTES", "5120", "5121", "5119"),
      constant("src/auth-server/scopes.ts", "SHOWN_SCOPE_LENGTH", "64", "65", "63"),
      constant("src/auth-server/client-metadata.ts", "SHOWN_NAME_CHARACTERS", "64", "65", "63"),
      constant("src/auth-server/servers.ts", "MAX_ORIGINS", "8", "9", "7"),
      constant("src/mcp/key-or-token-auth.ts", "AUTH_DEADLINE_MS", "3000", "3001", "2999"),
      constant("src/mcp/key-or-token-auth.ts", "MAX_ACCESS_TOKEN_LENGTH", "256", "257", "255"),
      // How long caches may keep the resource's metadata (docs/mcp.md: an hour), in the header's seconds.
      {
        file: "src/oauth/protected-resource.ts",
        from: '"public, max-age=3600"',
        up: '"public, max-age=3601"',
        down: '"public, max-age=3599"',
      },
    ],
  },
  "clean-ups": {
    tests: ["test/worker/db", "test/worker/deprecation"],
    nudges: [
      constant("src/deprecation/usage.ts", "DEPRECATED_USAGE_RETENTION_DAYS", "400", "401", "399"),
      constant("src/deprecation/usage.ts", "FLUSH_INTERVAL_MS", "10_000", "11_000", "9_000"),
      constant("src/deprecation/usage.ts", "FLUSH_DEADLINE_MS", "5_000", "6_000", "4_000"),
      constant("src/deprecation/usage.ts", "ROWS_PER_STATEMENT", "16", "17", "15"),
      constant("src/db/clean-up.ts", "CLEAN_UP_BATCH_ROWS", "1000", "1001", "999"),
      constant("src/db/clean-up.ts", "CLEAN_UP_BUDGET_MS", "60_000", "61_000", "59_000"),
    ],
  },
  d1: {
    tests: ["test/worker/faults/faults-d1.test.ts", "test/worker/faults/d1-deadline.test.ts", "test/worker/lib"],
    nudges: [
      constant("src/lib/faults.ts", "D1_DEADLINE_MS", "5000", "5001", "4999"),
      constant("src/lib/faults.ts", "D1_MAX_ATTEMPTS", "3", "4", "2"),
      constant("src/lib/faults.ts", "BACKOFF_BASE_MS", "50", "51", "49"),
    ],
  },
  // The bounds the served document states: openapi.json pins them, and check:openapi keeps it generated.
  document: {
    tests: ["test/worker/document", "test/node/scripts/checks.test.ts"],
    nudges: [
      constant("src/document/documentation-headers.ts", "IF_NONE_MATCH_MAX_LENGTH", "1024", "1025", "1023"),
      constant("src/schemas.ts", "ERROR_MESSAGE_MAX_LENGTH", "1024", "1025", "1023"),
      constant("src/document/documentation-headers.ts", "PAGE_MAX_LENGTH", "512 * 1024", "513 * 1024", "511 * 1024"),
    ],
  },
  memory: {
    tests: ["test/worker/faults/memory-budget.test.ts", "test/node/memory"],
    // Each cache's share (the budget is their sum): a mebibyte either way, or a quarter made a third and a fifth.
    nudges: [
      share("pets", "10 * MiB", "11 * MiB", "9 * MiB"),
      share("pages", "2 * MiB", "3 * MiB", "1 * MiB"),
      share("knownKeys", "2 * MiB", "3 * MiB", "1 * MiB"),
      ...["keyHashes", "unknownKeys", "usageCounts", "lastUsedDays", "cursors"].map((name) =>
        share(name, "MiB / 4", "MiB / 3", "MiB / 5"),
      ),
    ],
  },
  client: {
    tests: ["test/node/client"],
    nudges: [
      constant("client/src/retry.ts", "BASE_BACKOFF_MS", "500", "501", "499"),
      constant("client/src/retry.ts", "MAX_BACKOFF_MS", "8_000", "8_001", "7_999"),
      constant("client/src/errors.ts", "MAX_KEPT_CHARACTERS", "1024", "1025", "1023"),
    ],
  },
  restore: {
    tests: ["test/node/scripts/restore-check.test.ts"],
    nudges: [
      timeLimit(
        "10_000 + Math.ceil(bytes / 2 ** 20) * 1_000",
        "11_000 + Math.ceil(bytes / 2 ** 20) * 1_000",
        "9_000 + Math.ceil(bytes / 2 ** 20) * 1_000",
      ),
      timeLimit(
        "10_000 + Math.ceil(bytes / 2 ** 20) * 1_000",
        "10_000 + Math.ceil(bytes / 2 ** 20) * 2_000",
        "10_000 + Math.ceil(bytes / 2 ** 20) * 0",
      ),
      timeLimit(
        "10_000 + Math.ceil(bytes / 2 ** 20) * 1_000",
        "10_000 + Math.ceil(bytes / (2 ** 20 + 1)) * 1_000",
        "10_000 + Math.ceil(bytes / (2 ** 20 - 1)) * 1_000",
      ),
    ],
  },
  // The key scripts run as operators run them, against a local store (test/e2e/local/operator-scripts.test.ts).
  "key scripts": {
    tests: ["test/e2e/local/operator-scripts.test.ts", "test/node/scripts/key-records.test.ts"],
    nudges: [
      constant("scripts/lib/key-arguments.ts", "LABEL_MAX", "100", "101", "99"),
      constant("scripts/lib/key-records.ts", "METADATA_MAX_BYTES", "1024", "1025", "1023"),
      constant("scripts/lib/key-grants.ts", "UNEXCHANGED_CODE_TTL_S", "600", "601", "599"),
      duration('overlap: "30d"', 'overlap: "31d"', 'overlap: "29d"'),
      duration('expires: "3650d"', 'expires: "3651d"', 'expires: "3649d"'),
    ],
  },
  deploy: {
    tests: ["test/node/scripts/deploy.test.ts"],
    nudges: [duration('soak: "24h"', 'soak: "25h"', 'soak: "23h"')],
  },
};
