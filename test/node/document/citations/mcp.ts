// The tests that docs/mcp.md cites (./citation.ts says what each entry holds).
import { type Citation, edit } from "./citation";

export const MCP: Citation[] = [
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp.test.ts",
    claim: "runs an agent's session through the official TypeScript SDK's client and this page's local recipe",
    shownBy: [
      "lists the tools, pages through the pets, creates one once for a repeated key, and is told get_pet is deprecated",
    ],
    breaks: [edit("src/mcp/call.ts", "if (idempotencyKey !== undefined) headers.set", "if (false) headers.set")],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp.test.ts",
    claim: "runs both blocks as they are written here",
    shownBy: [
      "lists the tools and adds a pet with the Inspector's CLI, the current one (@modelcontextprotocol/inspector 2.x)",
      "runs the SDK agent of the page, which lists pets",
    ],
    breaks: [
      edit("src/mcp/routes.ts", "listTools: () => ({ tools: TOOLS }),", "listTools: () => ({ tools: [] }),"),
      edit("src/mcp/call.ts", "structuredContent: value,", ""),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/node/mcp/tool-schemas.test.ts",
    claim: "compile under a strict validator",
    shownBy: ["of list_pets compile under strict JSON Schema 2020-12"],
    breaks: [edit("src/mcp/tools.ts", "if (OPENAPI_FORMATS.has(rest.format as string)) delete rest.format;", "")],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp.test.ts",
    claim: "runs an agent's session",
    shownBy: ["hits the key's rate limit with its tool calls, and is told when to come back"],
    breaks: [edit("src/mcp/call.ts", "...(retryAfter !== undefined && { retryAfter })", "")],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/endpoint.test.ts",
    claim: "covers each protocol edge below",
    shownBy: [
      "answers malformed JSON with -32700, and a batch with -32600, each 400",
      "answers an unknown method with -32601, and bad params with -32602, each 200",
    ],
    breaks: [
      edit("src/mcp/protocol.ts", "export const PARSE_ERROR = -32700;", "export const PARSE_ERROR = -32600;"),
      edit("src/mcp/protocol.ts", "const METHOD_NOT_FOUND = -32601;", "const METHOD_NOT_FOUND = -32602;"),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/endpoint.test.ts",
    claim: "covers each protocol edge",
    shownBy: [
      "refuses an MCP-Protocol-Version it does not speak (400), a disallowed Origin (403), a big body (413), a missing, unknown or expired key (401)",
    ],
    breaks: [edit("src/mcp/routes.ts", "if (origin !== undefined && !mayCallMcp(origin, c)) {", "if (false) {")],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/live/mcp.test.ts",
    claim: "initializes, lists the tools and lists a page through `list_pets`",
    shownBy: ["POST /mcp initializes, lists the three tools and lists pets through list_pets"],
    breaks: [edit("src/mcp/protocol.ts", 'case "tools/list":', 'case "tools/list-renamed":')],
  },
];
