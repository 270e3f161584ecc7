// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the changes are source text, template literals included.
// The tests that docs/api.md cites for CORS, the clients and the deprecated operation (./citation.ts says what each entry holds).
import { type Citation, edit } from "./citation";

export const API_CALLERS: Citation[] = [
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
    breaks: [edit("src/rest/routes.ts", "{ Link: nextLink(", '{ "X-Link": nextLink(')],
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
];
