// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the changes are source text, template literals included.
// Every test the docs cite for a claim: the claim's words, the tests in the cited file that
// show it, and a change that makes the claim false, under which those tests must fail.
// `npm test` (./citations.test.ts) holds this list against the pages and the test files;
// `npm run test:citations` makes each change in turn and runs the tests it names.

/** A change to one file: `find` occurs in it exactly once, and is replaced. */
export type Edit = { file: string; find: string; replace: string };

export type Citation = {
  /** The page, and the test file it cites. */
  page: string;
  test: string;
  /** Words of the sentence, list item or table row that cites it (spaces as in one line). */
  claim: string;
  /** Names of tests in the file that show the claim, as vitest names them (`%s` filled in). */
  shownBy: string[];
  /** What makes the claim false: the tests named must then fail. */
  breaks: Edit[];
};

const edit = (file: string, find: string, replace: string): Edit => ({ file, find, replace });

export const CITATIONS: Citation[] = [
  // bench/README.md
  {
    page: "bench/README.md",
    test: "test/worker/bench/floor-statements.test.ts",
    claim: "sees the API send exactly those",
    shownBy: ["are the API's own for the partial page"],
    breaks: [edit("bench/queries.ts", 'all: ran("all",', 'all: ran("raw",')],
  },
  {
    page: "bench/README.md",
    test: "test/node/bench/bench-answers.test.ts",
    claim: "writes back each answer byte for byte, framed alike",
    shownBy: ["refuses a floor whose answer is framed otherwise, even with the same bytes"],
    breaks: [edit("bench/answers.ts", 'headers.get("content-length") ?? headers.get("transfer-encoding")', "null")],
  },
  {
    page: "bench/README.md",
    test: "test/node/bench/bench-server.test.ts",
    claim: "Both servers run without wrangler dev's local trace collector",
    shownBy: ["stops a run whose server started the collector"],
    breaks: [edit("scripts/lib/dev-server.ts", '"v3", "observability"', '"v3", "observability-renamed"')],
  },
  {
    page: "bench/README.md",
    test: "test/worker/pets/round-trips.test.ts",
    claim: "Storage round trips per request are asserted by",
    shownBy: ["serves a full page with no D1 query once it has been read"],
    breaks: [
      edit(
        "src/pets/cache.ts",
        "export const IMMUTABLE_PETS_CACHE = true;",
        "export const IMMUTABLE_PETS_CACHE = false;",
      ),
    ],
  },
  // docs/api.md
  {
    page: "docs/api.md",
    test: "test/worker/document/reference-page.test.ts",
    claim: "check the links, the examples, the sticky contents",
    shownBy: ["has no link to a missing anchor, no id twice, and a heading that links to itself in each section"],
    breaks: [edit("src/document/reference-page/html.ts", 'href="#${id}"', 'href="#to-${id}"')],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/docs-page.test.ts",
    claim: "check the links, the examples, the sticky contents",
    shownBy: ["keeps the contents in reach at the bottom of the page: a sidebar on a wide screen"],
    breaks: [edit("src/document/reference-page/style.ts", ".contents{position:sticky;", ".contents{position:static;")],
  },
  {
    page: "docs/api.md",
    test: "test/worker/document/openapi-examples.test.ts",
    claim: "sends the request behind each error example, expecting that exact body",
    shownBy: ["listPets 401 is what the service answers"],
    breaks: [
      edit(
        "src/keys/authenticate.ts",
        "Send an API key as 'Authorization: Bearer <key>'.",
        "Send an API key in 'Authorization: Bearer <key>'.",
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/helpers/conformance.test.ts",
    claim: "Every answer of the tests checked against it, HEAD and plain OPTIONS included",
    shownBy: ["checks a plain OPTIONS answered 204, and leaves out only a preflight's answer"],
    breaks: [
      edit(
        "test/helpers/conformance.ts",
        'const isPreflight = request.headers.has("origin") && request.headers.has("access-control-request-method");',
        "const isPreflight = true;",
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/browser.test.ts",
    claim: "in Chromium by `watchApiAnswers()`",
    shownBy: ["reads the 404 of unknown paths, preflights included"],
    breaks: [
      edit(
        "src/http/errors.ts",
        "`No route matches ${c.req.method} ${excerpt(c.req.path, 64)}.`));",
        '`No route matches ${c.req.method} ${excerpt(c.req.path, 64)}.`, { "X-Undeclared": "1" }));',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/docs-page.test.ts",
    claim: "in Chromium by `watchApiAnswers()`",
    shownBy: ["renders the three operations from this host alone"],
    breaks: [
      edit(
        "src/document/routes.ts",
        '{ "Content-Security-Policy": PAGE_CONTENT_SECURITY_POLICY }',
        '{ "Content-Security-Policy": PAGE_CONTENT_SECURITY_POLICY, "X-Undeclared": "1" }',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/document/openapi.test.ts",
    claim: "Routes and document agree, both ways",
    shownBy: ["describe the same routes, both ways"],
    breaks: [edit("openapi.json", '"/pets/{petId}": {', '"/pets/{id}": {')],
  },
  {
    page: "docs/api.md",
    test: "test/node/document/openapi-lint.test.ts",
    claim: "the document validates against the official OpenAPI 3.1 schema",
    shownBy: ["is valid against the official OpenAPI 3.1 JSON Schema and its Schema Object dialect"],
    breaks: [edit("openapi.json", '"openapi": "3.1.1",', '"openapi": "3.1.1", "paths2": 1,')],
  },
  {
    page: "docs/api.md",
    test: "test/node/document/openapi-lint.test.ts",
    claim: "requires `RateLimit-Policy` on every answer of the pets operations",
    shownBy: ["would fail Spectral's rules if a limit, a CORS header or the rate-limit policy went undescribed"],
    breaks: [
      edit(
        ".spectral.mjs",
        'then: { field: "headers.RateLimit-Policy", function: truthy },',
        'then: { field: "headers", function: truthy },',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/node/document/prism-mock.test.ts",
    claim: "answers every response of the three pets operations from the document's examples",
    shownBy: ["prism mock openapi.json answers createPet 201 with its example, finding nothing wrong"],
    breaks: [
      edit(
        "openapi.json",
        '"name": "Rex",\n                "categoryId": 1,',
        '"name": "Rex",\n                "categoryId": "one",',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/http/routing.test.ts",
    claim: "405 with `Allow` (`HEAD` is answered like `GET`)",
    shownBy: ["answers 405 with Allow for DELETE /v1/pets, to a key of any scopes"],
    breaks: [
      edit(
        "src/http/errors.ts",
        'Allow: methods.join(", "),',
        'Allow: methods.filter((method) => method !== "HEAD").join(", "),',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/http/cors.test.ts",
    claim: "a preflight that reaches no binding",
    shownBy: ["a preflight reaches no binding at all: neither the rate limiters nor KV nor D1"],
    breaks: [
      edit(
        "src/http/cors.ts",
        'if (c.req.method === "OPTIONS") {',
        'if (c.req.method === "OPTIONS" && c.req.path === "") {',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/http/cors.test.ts",
    claim: "the document's `If-None-Match`",
    shownBy: ["a preflight of the document allows If-None-Match, for any origin"],
    breaks: [edit("src/http/cors.ts", 'allowHeaders: ["If-None-Match"],', "allowHeaders: [],")],
  },
  {
    page: "docs/api.md",
    test: "test/worker/http/cors.test.ts",
    claim: "the headers on a 401, 404, 429, 500 and 503",
    shownBy: ["carry them on a 429, so that a page can read when to come back"],
    breaks: [edit("src/http/cors.ts", '  "Retry-After",\n', "")],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/browser.test.ts",
    claim: "a page on that origin creates, lists and fetches pets, reads `Link`",
    shownBy: ["creates, lists and fetches pets with a key, reading the headers it needs and the body of a 401"],
    breaks: [edit("src/http/cors.ts", '  "Link",\n', "")],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/generated-sdks.test.ts",
    claim: "a create without `status`, a page and the one its cursor names, and a 404",
    shownBy: ["type-checks both programs with TypeScript 5, strict"],
    breaks: [
      edit(
        "openapi.json",
        '"required": [\n          "name",\n          "categoryId"\n        ],',
        '"required": [\n          "name",\n          "categoryId",\n          "status"\n        ],',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/client-package.test.ts",
    claim: "It trusts nothing it is sent",
    shownBy: ["trusts nothing a stand-in sends, and recovers a create whose answer was lost, exactly once"],
    breaks: [
      edit("client/src/attempt.ts", "if (!followRedirects && (redirected || response.redirected)) {", "if (false) {"),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/client/client.test.ts",
    claim: "calls each operation that way",
    shownBy: ["lists pets, and follows the next link (listPets)"],
    breaks: [edit("src/pets/routes.ts", 'c.header("Link"', 'c.header("X-Link"')],
  },
  {
    page: "docs/api.md",
    test: "test/worker/deprecation/deprecated-usage.test.ts",
    claim: "20 calls at once: one write",
    shownBy: [
      "are written after the answer, at most once per interval: 20 calls at once make no round trip of theirs and one write",
    ],
    // Each call written at once, while it is answered: no interval, no batch of calls.
    breaks: [
      edit(
        "src/deprecation/usage.ts",
        "const underWay = flushScheduledAt !== undefined &&",
        "const underWay = false &&",
      ),
      edit(
        "src/deprecation/usage.ts",
        "await new Promise((resolve) => setTimeout(resolve, delayMs));",
        "void delayMs;",
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/deprecation/deprecated-usage.test.ts",
    claim: "sooner only when 64 rows are waiting",
    shownBy: ["are written at once, not an interval later, when a full batch of 64 rows is still waiting"],
    breaks: [edit("src/deprecation/usage.ts", "unwritten.size >= ROWS_PER_FLUSH ? 0 : ", "")],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/operator-scripts.test.ts",
    claim: "locally a call shows within seconds",
    shownBy: ["usage:deprecated shows the getPet calls under the caller's key label"],
    breaks: [
      edit("scripts/usage.ts", "select key_label, api_key_hash", "select api_key_hash as key_label, api_key_hash"),
    ],
  },
  // docs/architecture.md
  {
    page: "docs/architecture.md",
    test: "test/node/document/docs-prose.test.ts",
    claim: "fails when a folder is missing here",
    shownBy: ["names every folder of the code, and only those"],
    breaks: [
      edit(
        "docs/architecture.md",
        "- `test/sdks/programs/`: the programs that call the API through each generated client\n",
        "",
      ),
    ],
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
        "src/http/rate-limit.ts",
        "withDeadline(c.env[name].limit({ key }), LIMITER_DEADLINE_MS, name)",
        "c.env[name].limit({ key })",
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/e2e/local/outages.test.ts",
    claim: "checks that the service recovers by itself",
    shownBy: ["keeps a key verified lately working, answers 503 (not 401) for any other, and recovers by itself"],
    breaks: [
      edit(
        "src/keys/authenticate.ts",
        'if (!lastVerified) throw unavailable("The API key store");',
        'if (!lastVerified) throw new ApiError("unauthorized", "The API key is not valid.");',
      ),
    ],
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
      edit("src/http/rate-limit.ts", "return count <= DEPLOYED_LIMITS.AUTH_FAILURE_LIMITER.limit;", "return true;"),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/e2e/local/outages.test.ts",
    claim: "checks that every pet acknowledged with 201 is stored exactly once",
    shownBy: ["loses and doubles nothing it acknowledged when the server is killed with SIGKILL mid-stream"],
    breaks: [
      edit(
        "src/pets/queries.ts",
        "session.insert(pets).values(pet).returning(),",
        "session.insert(pets).values(pet).returning(),\n        session.insert(pets).values(pet),",
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/pets/pet-cache.test.ts",
    claim: "fails as soon as a route other than `GET` and `POST /v1/pets` exists on pets while the switch is on",
    shownBy: ["is on exactly while no route can change or delete a pet"],
    breaks: [
      edit(
        "src/pets/routes.ts",
        "export const petRoutes = new Hono<AppEnv>()",
        'export const petRoutes = new Hono<AppEnv>()\n  .delete("/v1/pets/:petId", (c) => c.body(null, 204))',
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/faults/memory-budget.test.ts",
    claim: "checks that each stays within its share",
    shownBy: ["stay within the budget when filled with the worst case"],
    breaks: [
      edit(
        "src/lib/bounded-cache.ts",
        'if (typeof value === "string") return STRING_BYTES + 2 * value.length;',
        'if (typeof value === "string") return STRING_BYTES + value.length;',
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/node/memory/cache-heap.test.ts",
    claim: "The estimate is checked against the real heap",
    shownBy: ["the pet cache, filled to its share with the longest names, takes no more heap than it estimates"],
    breaks: [
      edit(
        "src/lib/bounded-cache.ts",
        'if (typeof value === "string") return STRING_BYTES + 2 * value.length;',
        'if (typeof value === "string") return STRING_BYTES + value.length;',
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/db/session.test.ts",
    claim: "the test fails if the API drops the bookmark",
    shownBy: ["is read without a bookmark, and passed over for the primary with the bookmark of a write"],
    breaks: [
      edit(
        "src/db/session.ts",
        "createSessionDatabase(c.env.DB, bookmark, usage)",
        "createSessionDatabase(c.env.DB, undefined, usage)",
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/pets/round-trips.test.ts",
    claim: "the key's KV read happens once per isolate and minute",
    shownBy: ["serves a pet with no D1 query once it is known, and reads an unknown one once"],
    breaks: [
      edit(
        "src/pets/cache.ts",
        "export const IMMUTABLE_PETS_CACHE = true;",
        "export const IMMUTABLE_PETS_CACHE = false;",
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/pets/query-plan.test.ts",
    claim: "Both listing queries search an index, never scan `pets`",
    shownBy: ["search an index without a status and never scan pets"],
    breaks: [
      edit(
        "src/pets/queries.ts",
        'gt(pets.id, sql.placeholder("afterId"))',
        'sql`${pets.id} + 0 > ${sql.placeholder("afterId")}`',
      ),
    ],
  },
  // docs/development.md
  {
    page: "docs/development.md",
    test: "test/node/scripts/checks.test.ts",
    claim: "which runs `check:migrations`, `check:openapi`, `check:client` and `check:deploy` among its files",
    shownBy: ["npm run check:openapi passes"],
    breaks: [edit("openapi.json", '"title": "Petstore edge API"', '"title": "Petstore edge API, stale"')],
  },
  {
    page: "docs/development.md",
    test: "test/node/client/client-retries.test.ts",
    claim: "the client's retries, waits and warnings against a stand-in `fetch`",
    shownBy: ["reads Retry-After as an HTTP-date too, and sends the caller's Idempotency-Key when given"],
    breaks: [edit("client/src/retry.ts", "Date.parse(value)", "Number.NaN")],
  },
  {
    page: "docs/development.md",
    test: "test/node/document/docs-prose.test.ts",
    claim: "links and paths that resolve, no fragments or empty headings, measured figures dated",
    shownBy: ["docs/operations.md names only paths that exist"],
    breaks: [
      edit(
        "docs/operations.md",
        "`test/node/scripts/runbook.test.ts` checks",
        "`test/node/scripts/run-book.test.ts` checks",
      ),
    ],
  },
  {
    page: "docs/development.md",
    test: "test/e2e/local/client.test.ts",
    claim: "the client's every method, errors and the throttle's 429",
    shownBy: [
      "waits out the 429 of the throttle on guessed keys when told to, and throws it at once past maxRetryWaitMs",
    ],
    breaks: [
      edit(
        "client/src/retry.ts",
        "export const RETRIED_STATUSES = [429, 502, 503, 504];",
        "export const RETRIED_STATUSES = [502, 503, 504];",
      ),
    ],
  },
  {
    page: "docs/development.md",
    test: "test/e2e/local/client-package.test.ts",
    claim: "its package packed, installed elsewhere and run with Node.js 20",
    shownBy: ["runs the README's examples as written, type-checked strictly, with Node.js 20"],
    // Regular expression modifiers came with Node.js 23: Node.js 20 refuses the module.
    breaks: [
      edit(
        "client/src/retry.ts",
        "export const RETRIED_STATUSES = [429, 502, 503, 504];",
        'export const RETRIED_STATUSES = [429, 502, 503, 504].filter(() => new RegExp("(?i:a)"));',
      ),
    ],
  },
  {
    page: "docs/development.md",
    test: "test/e2e/local/generated-sdks.test.ts",
    claim: "checked with TypeScript 5 and run",
    shownBy: ["type-checks both programs with TypeScript 5, strict"],
    breaks: [edit("openapi.json", '"name": "petId"', '"name": "pet"')],
  },
  {
    page: "docs/development.md",
    test: "test/worker/pets/round-trips.test.ts",
    claim: "Storage round trips per request are asserted in",
    shownBy: ["always queries D1, once, for a partial page"],
    breaks: [
      edit(
        "src/pets/cache.ts",
        "if (rows.length <= limit || !last) return { ...page, fromCache: false };",
        "if (rows.length <= limit || !last) {\n    fullPages.set(key, { pets: page.pets });\n    return { ...page, fromCache: false };\n  }",
      ),
    ],
  },
  {
    page: "docs/development.md",
    test: "test/node/document/citations.test.ts",
    claim: "or when the cited file has no test of the name listed",
    shownBy: ["are each listed, with words of their sentence, and name tests that the cited file has"],
    breaks: [
      edit(
        "test/node/bench/bench-server.test.ts",
        '"stops a run whose server started the collector"',
        '"stops a run that started the collector"',
      ),
    ],
  },
  // docs/keys.md
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
        "src/keys/authenticate.ts",
        "c.header(KEY_EXPIRATION_HEADER, new Date(record.expiresAt).toUTCString())",
        "c.header(KEY_EXPIRATION_HEADER, record.expiresAt)",
      ),
    ],
  },
  {
    page: "docs/keys.md",
    test: "test/worker/faults/faults.test.ts",
    claim: "an expiry instant is still checked on every request",
    shownBy: ["keeps a key this isolate verified within 10 minutes working, and no longer"],
    breaks: [
      edit(
        "src/keys/authenticate.ts",
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
    breaks: [edit("scripts/lib/key-roll.ts", "  const after = await lostTo();", "  const after = undefined;")],
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
        "src/keys/authenticate.ts",
        'if (!(await isWithinLimit(c, "AUTH_FAILURE_LIMITER", clientAddress(c)))) {',
        'if (!(await isWithinLimit(c, "AUTH_FAILURE_LIMITER", crypto.randomUUID()))) {',
      ),
    ],
  },
  // docs/operations.md
  {
    page: "docs/operations.md",
    test: "test/node/scripts/runbook.test.ts",
    claim: "checks each `npm run` script against `package.json`",
    shownBy: ["name scripts of package.json"],
    breaks: [edit("package.json", '"d1:replication": ', '"d1:replicate": ')],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/deploy.test.ts",
    claim: "follows the rollout's steps, with wrangler's commands and the smoke test recorded",
    shownBy: ["stops at 0% when the smoke test fails: the previous version keeps all traffic"],
    breaks: [
      edit(
        "scripts/lib/rollout.ts",
        "if (await actions.smokeTest(candidate)) return;",
        "if (true || (await actions.smokeTest(candidate))) return;",
      ),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/config-check.test.ts",
    claim: "takes each away in turn, per environment",
    shownBy: ["[env.staging] is refused without any one binding, var or required secret"],
    breaks: [edit("scripts/lib/check-config.ts", '"GET_PET_BROWNOUTS"', '"ACCESS_LOG"')],
  },
  {
    page: "docs/operations.md",
    test: "test/e2e/local/smoke.test.ts",
    claim: "where each request carries the override",
    shownBy: [
      "passes against the base address with /v1, the key taken from SMOKE_KEY; with --version, sends every request to that version of the environment's Worker",
    ],
    breaks: [
      edit(
        "test/e2e/helpers/client.ts",
        "  if (versionOverride) request.headers.set(VERSION_OVERRIDE_HEADER, versionOverride);\n",
        "",
      ),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/migrations.test.ts",
    claim: "shows what it catches",
    shownBy: ["refuses a dropped column and a rebuilt table, and passes an added column"],
    breaks: [edit("scripts/check-migrations.ts", "DROP", "DROPPED")],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/d1-replication.test.ts",
    claim: "runs it against a stand-in that records the request",
    shownBy: ["asks the API to turn read replication on for the environment's database, with the token"],
    breaks: [edit("scripts/d1-replication.ts", '"auto"', '"disabled"')],
  },
  {
    page: "docs/operations.md",
    test: "test/worker/pets/pagination.test.ts",
    claim: "a cursor stays valid while the secret that signed it is either",
    shownBy: ["keeps the cursors handed out before a rotation valid while CURSOR_SECRET_PREVIOUS holds the old secret"],
    breaks: [
      edit("src/pets/cursor.ts", "if (encoder.encode(previous).length >= MIN_SECRET_BYTES) return previous;", ""),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/e2e/local/secret-rotation.test.ts",
    claim: "follows a next link issued under the old secret after these steps",
    shownBy: ["keeps next links issued under the old secret valid during a rotation, and only then"],
    breaks: [
      edit("src/pets/cursor.ts", "if (encoder.encode(previous).length >= MIN_SECRET_BYTES) return previous;", ""),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/e2e/local/operator-scripts.test.ts",
    claim: "shows that it records every migration of `drizzle/` as applied",
    shownBy: ["restores into fresh state a database that answers the same pets, ids and idempotency records"],
    breaks: [
      edit(
        "scripts/backup.ts",
        "splitSql(dump).map((statement)",
        'splitSql(dump).filter((statement) => !statement.includes("d1_migrations")).map((statement)',
      ),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/deploy.test.ts",
    claim: "1 in 20 in production",
    shownBy: [
      "production's observability (wrangler.toml) keeps every access line and invocation log in Workers Logs, and traces the share the docs state",
    ],
    breaks: [edit("wrangler.toml", "head_sampling_rate = 0.05", "head_sampling_rate = 0.1")],
  },
  {
    page: "docs/operations.md",
    test: "test/worker/http/observability.test.ts",
    claim: "its fields are asserted in",
    shownBy: ["writes one JSON line per request with its id, route, status, key label and error code, never the key"],
    breaks: [edit("src/http/request-log.ts", "      durationMs: Date.now() - started,\n", "")],
  },
  {
    page: "docs/operations.md",
    test: "test/worker/http/observability.test.ts",
    claim: "is one flat JSON object per request",
    shownBy: ["says whether D1 answered from the primary or from a replica"],
    breaks: [
      edit(
        "src/db/client.ts",
        'if (typeof meta.served_by_primary === "boolean") usage.servedByPrimary ||= meta.served_by_primary;',
        "usage.servedByPrimary = true;",
      ),
    ],
  },
];
