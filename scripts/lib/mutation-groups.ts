// What `npm run test:mutation` mutates: the modules that carry the rules the docs state,
// each group with the tests that show those rules (a mutant is killed when they fail).
// The survivors judged equivalent, each with why: ./mutation-equivalents.ts.

export type MutationGroup = {
  /** The files mutated, as StrykerJS's `mutate` globs. */
  mutate: string[];
  /** The command that runs the group's tests: a mutant that leaves it passing survived. */
  command: string;
};

export const MUTATION_GROUPS: Record<string, MutationGroup> = {
  // Keys: their format and checksum, expiry, scopes, the caches and the throttle (docs/keys.md).
  keys: {
    mutate: ["src/keys/api-key.ts", "src/keys/verify.ts", "src/http/api-key-auth.ts", "src/keys/address-group.ts"],
    // With the KV faults and the memory budget, which the key caches obey, tokens, which stand for
    // keys, and the sign-in form, which checks a key as /v1 does.
    command:
      "npx vitest run --project worker test/worker/keys test/worker/faults/faults.test.ts test/worker/faults/memory-budget.test.ts test/worker/mcp/sign-in.test.ts test/worker/mcp/token-faults.test.ts test/worker/mcp/sign-in-form-keys.test.ts --silent",
  },
  // /mcp: its versions, the arguments' rules, the door (docs/mcp.md).
  mcp: {
    mutate: ["src/mcp/tool.ts", "src/mcp/tools.ts", "src/mcp/versions.ts", "src/mcp/key-or-token-auth.ts"],
    command: "npx vitest run --project worker test/worker/mcp --silent",
  },
  // The sign-in Worker: grants no more than the page showed, lifetimes, PKCE, refresh reuse,
  // strangers' writes, the metadata fetch, its stores' faults (docs/mcp.md). Each prefix names
  // every file that starts with it (sign-in*, token-request*).
  "sign-in": {
    mutate: ["src/auth-server/*.ts"],
    command:
      "npx vitest run --project worker test/worker/mcp/sign-in test/worker/mcp/token-request test/worker/mcp/metadata-fetch.test.ts test/worker/mcp/lifetimes.test.ts test/worker/mcp/scopes.test.ts --silent",
  },
  // /mcp's sign-in half: the challenge, the token's check and its scopes (docs/mcp.md).
  "mcp-sign-in": {
    mutate: ["src/oauth/protected-resource.ts"],
    command: "npx vitest run --project worker test/worker/mcp test/worker/pets/doors.test.ts --silent",
  },
  // The hourly clean-ups: batched, within their budget, each run apart (docs/operations.md).
  "clean-ups": {
    mutate: ["src/db/clean-up.ts"],
    command:
      "npx vitest run --project worker test/worker/db/clean-up.test.ts test/worker/faults/cron-faults.test.ts --silent",
  },
  // The restore's check of a dump, and its time limit (docs/operations.md).
  restore: {
    mutate: ["scripts/lib/check-dump.ts", "scripts/lib/dump-check-process.ts"],
    command: "npx vitest run --project node test/node/scripts/restore-check.test.ts --silent",
  },
  // The pets' cursors (signed, rotated, bounded) and the isolate's caches of pets and pages (docs/api.md).
  pets: {
    mutate: ["src/core/cursor.ts", "src/core/cache.ts"],
    // Not the property tests, whose seed changes with each run, nor the memory budget, which
    // the caches' own module keeps (src/lib/bounded-cache.ts) and which takes longer than the rest together.
    command:
      "npx vitest run --project worker test/worker/pets/pagination.test.ts test/worker/pets/cursor-secret.test.ts test/worker/pets/pet-cache.test.ts test/worker/pets/list-pets.test.ts test/worker/pets/get-pet.test.ts test/worker/pets/round-trips.test.ts --silent",
  },
  // The segments of pets: their ranges and bindings, the walk across them, the open segment, the
  // bookmarks of several, the clean-up's segments (docs/architecture.md, "Segments"). Not the
  // property test, whose seed changes with each run.
  segments: {
    mutate: [
      "src/db/segments.ts",
      "src/db/segment-sessions.ts",
      "src/core/page-walk.ts",
      "src/core/open-segment.ts",
      "src/core/segments-to-clean.ts",
    ],
    command:
      "npx vitest run --project worker test/worker/segments/operations.test.ts test/worker/segments/over-http.test.ts test/worker/segments/clean-up.test.ts test/worker/segments/load.test.ts test/worker/db/session.test.ts --silent",
  },
  // The headers of a path on every answer, however it was written: an answer's own header
  // wins, one the path appends to is added to (docs/architecture.md, "CPU per request"); with
  // the files that show them on the API's answers (CORS, the 405s and preflights, the request id).
  headers: {
    mutate: ["src/http/answer-headers.ts", "src/http/header-parts.ts"],
    command:
      "npx vitest run --project worker test/worker/http/answer-headers.test.ts test/worker/http/cors.test.ts test/worker/http/routing.test.ts test/worker/http/observability.test.ts --silent",
  },
  // The HTTP layer's body checks: its media type, charset, encoding and size, read as the body
  // streams (docs/api.md), at the API's door and the sign-in Worker's.
  body: {
    mutate: ["src/lib/bounded-body.ts", "src/http/json-body.ts"],
    command:
      "npx vitest run --project worker test/worker/pets/create-pet-body.test.ts test/worker/pets/create-pet-body-size.test.ts test/worker/pets/create-pet.test.ts test/worker/mcp/endpoint.test.ts test/worker/mcp/token-request.test.ts test/worker/mcp/sign-in-strangers.test.ts test/worker/mcp/sign-in-registrations.test.ts test/worker/mcp/sign-in-bodies.test.ts --silent",
  },
  // JSON read one way: no repeated member, no number rounded to an integer it is not, no deep
  // nesting (docs/api.md). The gate and the scan, pure, shown on their own; each door's wording,
  // in the body group.
  json: {
    mutate: ["src/lib/json-ambiguity.ts"],
    command: "npx vitest run --project node test/node/lib/json-ambiguity.test.ts --silent",
  },
  // The client: retries, backoff, Retry-After, the checks of every answer (client/README.md).
  client: {
    mutate: ["client/src/retry.ts", "client/src/checks.ts", "client/src/errors.ts"],
    command: "npx vitest run --project node test/node/client --silent",
  },
};
