// The tests that bench/README.md cites (./citation.ts says what each entry holds).
import { type Citation, edit } from "./citation";

export const BENCH_README: Citation[] = [
  {
    page: "bench/README.md",
    test: "test/worker/bench/floor-statements.test.ts",
    claim: "sees the API send exactly those",
    shownBy: ["are the API's own for the partial page"],
    breaks: [edit("bench/queries.ts", 'all: ran("all",', 'all: ran("raw",')],
  },
  {
    page: "bench/README.md",
    test: "test/worker/bench/floor-statements.test.ts",
    claim: "send exactly that batch after getPet's answer",
    shownBy: ["is the API's own: one batch of its statement, on the binding itself, once the interval has passed"],
    breaks: [
      edit(
        "bench/queries.ts",
        "upsertStatement(recordingClient([]), [row])",
        "upsertStatement(recordingClient([]), [row, row])",
      ),
    ],
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
    test: "test/node/bench/bench-callgrind.test.ts",
    claim: "helper thread compiled anything stops the run",
    shownBy: ["names V8's compilers on any thread but the first, in the newest dump"],
    breaks: [edit("bench/callgrind.ts", "cost > 0 && V8_COMPILERS.test(name)", "cost > 0 && false")],
  },
  {
    page: "bench/README.md",
    test: "test/node/bench/bench-server.test.ts",
    claim: "Every server runs without wrangler dev's local trace collector",
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
        "src/core/cache.ts",
        "export const IMMUTABLE_PETS_CACHE = true;",
        "export const IMMUTABLE_PETS_CACHE = false;",
      ),
    ],
  },
  {
    page: "bench/README.md",
    test: "test/worker/bench/tool-targets.test.ts",
    claim: "sees the API answer them with a result",
    shownBy: ["createPetTool gets a tool result, as the bench checks"],
    breaks: [edit("bench/targets.ts", '"Mcp-Name": name,', '"Mcp-Name": "list_pets",')],
  },
  {
    page: "bench/README.md",
    test: "test/node/bench/bench-report.test.ts",
    claim: "pins each from both sides",
    shownBy: ["meets the tool goal at +0.08 over the reference, and not a tenth of a point above"],
    breaks: [edit("bench/targets.ts", "tool: 0.08 }", "tool: 0.09 }")],
  },
];
