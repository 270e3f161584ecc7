// The tests that docs/development.md cites (./citation.ts says what each entry holds).
import { type Citation, edit } from "./citation";

export const DEVELOPMENT: Citation[] = [
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
        "src/core/cache.ts",
        "  if (rows.length <= limit || !last) {\n",
        "  if (rows.length <= limit || !last) {\n    fullPages.set(key, { pets: page.pets });\n",
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
  {
    page: "docs/development.md",
    test: "test/e2e/local/mcp.test.ts",
    claim: "an agent's session on `/mcp` through the official MCP SDK's client",
    shownBy: [
      "lists the tools, pages through the pets, creates one once for a repeated key, and is told get_pet is deprecated",
    ],
    breaks: [edit("src/mcp/tools.ts", 'name: "list_pets",', 'name: "list-pets",')],
  },
];
