// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the changes are source text, template literals included.
// The tests that docs/architecture.md cites (./citation.ts says what each entry holds); those
// of what the API does when a dependency fails, and of its memory: ./architecture-faults.ts.
import { type Citation, edit } from "./citation";

export const ARCHITECTURE: Citation[] = [
  {
    page: "docs/architecture.md",
    test: "test/worker/http/answer-headers.test.ts",
    claim: "that an answer's own header wins and that one the path appends to is added to",
    shownBy: [
      "/written/own: an answer's own header wins over a part's of its name, and adds to one the part appends",
      "/by-hono/own: an answer's own header wins over a part's of its name, and adds to one the part appends",
    ],
    // Written with the answer, Vary replaced; put on the way out, Cache-Control replaced.
    breaks: [
      edit("src/http/answer-headers.ts", "if (combination.appendedNames.has(name.toLowerCase()))", "if (false)"),
      edit(
        "src/http/header-parts.ts",
        "if (!headers.has(name)) headers.set(name, value);",
        "headers.set(name, value);",
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/pets/doors.test.ts",
    claim: "shows the same refusal from both doors",
    shownBy: [
      "of the scope: a read-only key may not create, and nothing is stored; at /mcp, as HTTP 403 with MCP's scope challenge",
    ],
    breaks: [edit("src/core/operation.ts", "hasScope(caller, scope)", "true")],
  },
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
    test: "test/worker/pets/pet-cache.test.ts",
    claim: "fails as soon as a route other than `GET` and `POST /v1/pets` exists on pets while the switch is on",
    shownBy: ["is on exactly while no route can change or delete a pet"],
    breaks: [
      edit(
        "src/rest/routes.ts",
        "export const petRoutes = newApp()",
        'export const petRoutes = newApp()\n  .delete("/:petId", (c) => c.body(null, 204))',
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
        "createSessionDatabase(this.d1, this.bookmark, this.usage)",
        "createSessionDatabase(this.d1, undefined, this.usage)",
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
        "src/core/cache.ts",
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
        "src/core/queries.ts",
        'gt(pets.id, sql.placeholder("afterId"))',
        'sql`${pets.id} + 0 > ${sql.placeholder("afterId")}`',
      ),
    ],
  },
  {
    page: "docs/architecture.md",
    test: "test/worker/db/clean-up.test.ts",
    claim: "deletes 100,000 expired records over as many runs as that takes",
    shownBy: ["deletes 100,000 in statements of 1,000 rows, 6 a run while each takes 10 s, until all are gone"],
    breaks: [
      edit(
        "src/db/clean-up.ts",
        "export const CLEAN_UP_BATCH_ROWS = 1000;",
        "export const CLEAN_UP_BATCH_ROWS = 2000;",
      ),
    ],
  },
];
