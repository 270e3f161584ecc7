// The tests that docs/architecture.md cites for what the API does when a dependency fails or
// is misconfigured, and for its memory (./citation.ts says what each entry holds); its other
// citations: ./architecture.ts.
import { type Citation, edit } from "./citation";

/** The caches' estimate, a string counted at one byte a UTF-16 code unit: both memory citations' break. */
const STRINGS_AT_ONE_BYTE = edit(
  "src/lib/bounded-cache.ts",
  'if (typeof value === "string") return STRING_BYTES + 2 * value.length;',
  'if (typeof value === "string") return STRING_BYTES + value.length;',
);

export const ARCHITECTURE_FAULTS: Citation[] = [
  {
    page: "docs/architecture.md",
    test: "test/worker/mcp/sign-in-faults.test.ts",
    claim: "never a 500",
    shownBy: ["answers the page (GET /authorize) 503 with Retry-After when OAUTH_KV throws"],
    breaks: [edit("src/auth-server/stores.ts", "faults.causes.push(error);", "")],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/mcp/sign-in-odd-input.test.ts",
    claim: "is bad input, 4xx",
    shownBy: ["knows no access token longer than KV's names, without a fault"],
    breaks: [edit("src/auth-server/stores.ts", "if (absent && overlong(name)) return absent();", "")],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/faults/faults-d1.test.ts",
    claim: "wrap the real bindings to throw or hang",
    shownBy: ["'Network connection lost.' once: retried, and answered 200"],
    breaks: [edit("src/lib/faults.ts", "const D1_MAX_ATTEMPTS = 3", "const D1_MAX_ATTEMPTS = 1")],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/faults/faults.test.ts",
    claim: "wrap the real bindings to throw or hang",
    shownBy: ["that hangs is given up after a second, and fails open"],
    breaks: [
      edit(
        "src/lib/limiters.ts",
        "withDeadline(limiter.limit({ key }), LIMITER_DEADLINE_MS, name)",
        "limiter.limit({ key })",
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/e2e/local/outages.test.ts",
    claim: "checks that the service recovers by itself",
    shownBy: ["keeps a key verified lately working, answers 503 (not 401) for any other, and recovers by itself"],
    breaks: [edit("src/keys/verify.ts", 'return lastVerified ?? "unavailable";', 'return lastVerified ?? "unknown";')],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/lib/retries.test.ts",
    claim: "holds the clock and the dice",
    shownBy: ["is tried again after at most 100 ms, then at most 200 ms, for 3 attempts in all"],
    breaks: [edit("src/lib/faults.ts", "const BACKOFF_BASE_MS = 50;", "const BACKOFF_BASE_MS = 100;")],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/faults/d1-deadline.test.ts",
    claim: "has not answered within 5 s",
    shownBy: ["on a read: 503 with Retry-After, tried once"],
    breaks: [edit("src/lib/faults.ts", "export const D1_DEADLINE_MS = 5000;", "export const D1_DEADLINE_MS = 6000;")],
  },
  {
    page: "docs/architecture.md",
    test: "test/node/scripts/config-check.test.ts",
    claim: "`npm run check:deploy` refuses such a configuration",
    shownBy: ["[env.production] is refused without any one binding, var or required secret"],
    breaks: [
      edit(
        "scripts/lib/check-config.ts",
        "ratelimits: Object.keys(DEPLOYED_LIMITS) as (keyof typeof DEPLOYED_LIMITS)[],",
        'ratelimits: ["RATE_LIMITER"] as (keyof typeof DEPLOYED_LIMITS)[],',
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/http/config-errors.test.ts",
    claim: "`AUTH_FAILURE_LIMITER`'s count is kept in each isolate alone",
    shownBy: [
      "AUTH_FAILURE_LIMITER: unknown keys are counted in the isolate, 429 past the deployed limit; logged once",
    ],
    breaks: [
      edit("src/lib/limiters.ts", "return count <= DEPLOYED_LIMITS.AUTH_FAILURE_LIMITER.limit;", "return true;"),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/e2e/local/outages.test.ts",
    claim: "checks that every pet acknowledged with 201 is stored exactly once",
    shownBy: ["loses and doubles nothing it acknowledged when the server is killed with SIGKILL mid-stream"],
    breaks: [
      edit(
        "src/core/queries.ts",
        "session.insert(pets).values(pet).returning(),",
        "session.insert(pets).values(pet).returning(),\n        session.insert(pets).values(pet),",
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/faults/memory-budget.test.ts",
    claim: "checks that each stays within its share",
    shownBy: ["stay within the budget when filled with the worst case"],
    breaks: [STRINGS_AT_ONE_BYTE],
  },
  {
    page: "docs/architecture.md",
    test: "test/node/memory/cache-heap.test.ts",
    claim: "The estimate is checked against the real heap",
    shownBy: ["the pet cache, filled to its share with the longest names, takes no more heap than it estimates"],
    breaks: [STRINGS_AT_ONE_BYTE],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/mcp/token-faults.test.ts",
    claim: "a call to `/mcp` with an access token gets 503 (never 401)",
    shownBy: [
      "gets 503 with Retry-After, never 401, while the sign-in Worker throws or hangs; a key carries on",
      "gets 503 where no sign-in Worker is bound, as its pages do; a key carries on",
    ],
    breaks: [
      edit(
        "src/mcp/key-or-token-auth.ts",
        'import { unavailable } from "../core/refusal";',
        'import { Refusal } from "../core/refusal";\nconst unavailable = (_what: string) => new Refusal("unauthorized", "No.");',
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/mcp/sign-in-routes.test.ts",
    claim: "and the sign-in pages 503",
    shownBy: [
      "are 503 where no sign-in Worker is bound, or a binding that is not one: a misconfiguration, not a fault",
      "are 503 while the sign-in Worker throws, each with the fault line the runbook finds",
    ],
    breaks: [
      edit(
        "src/oauth/protected-resource.ts",
        'logDependencyFault(faultContext(c), "AUTH", error, "503");\n    throw unavailable("Signing in");',
        "throw error;",
      ),
      edit(
        "src/oauth/protected-resource.ts",
        'if (!service) throw unavailable("Signing in");',
        "if (!service) return c.notFound();",
      ),
    ],
  },
];
