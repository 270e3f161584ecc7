// The tests that docs/mcp.md cites (./citation.ts says what each entry holds); those of
// its sign-in with OAuth: ./mcp-sign-in.ts.
import { type Citation, edit } from "./citation";

export const MCP: Citation[] = [
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/plumbing.test.ts",
    claim: "`_meta.idempotentReplayed: true`",
    shownBy: ["say that an idempotent create was a replay: Idempotent-Replayed over HTTP, _meta at /mcp"],
    breaks: [
      edit(
        "src/mcp/tools.ts",
        "meta: ({ replayed }) => (replayed ? { idempotentReplayed: true } : undefined),",
        "meta: () => undefined,",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/keys/auth.test.ts",
    claim: "which takes API keys only",
    shownBy: ["tells a credential without a key's prefix, an access token most likely, that /v1 takes API keys"],
    breaks: [edit("src/http/api-key-auth.ts", "if (!isApiKeyCredential(token)) {", "if (false) {")],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp.test.ts",
    claim: "runs an agent's session and this page's local recipe",
    shownBy: [
      "lists the tools, pages through the pets, creates one once for a repeated key, and is told get_pet is deprecated",
    ],
    breaks: [edit("src/mcp/tools.ts", "({ pet, idempotencyKey })", "({ pet, idempotencyKey: undefined })")],
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
      edit(
        "src/mcp/routes.ts",
        "const listTools = () => ({ tools: tools() });",
        "const listTools = () => ({ tools: [] });",
      ),
      edit("src/mcp/call.ts", "structuredContent: result,", ""),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/node/mcp/tool-schemas.test.ts",
    claim: "compile under a strict validator",
    shownBy: ["of list_pets compile under strict JSON Schema 2020-12"],
    breaks: [
      edit("src/mcp/document-schemas.ts", "if (OPENAPI_FORMATS.has(rest.format as string)) delete rest.format;", ""),
    ],
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
    claim: "cover each protocol edge below",
    shownBy: [
      "answers malformed JSON with -32700, and a batch with -32600, each 400",
      "answers an unknown method with -32601, and bad params with -32602, each 200",
      "opens the handshake without MCP-Protocol-Version, and refuses any other message without it (400, -32020)",
    ],
    breaks: [
      edit("src/mcp/json-rpc.ts", "export const PARSE_ERROR = -32700;", "export const PARSE_ERROR = -32600;"),
      edit("src/mcp/json-rpc.ts", "export const METHOD_NOT_FOUND = -32601;", "export const METHOD_NOT_FOUND = -32602;"),
      edit(
        "src/mcp/versions.ts",
        'return mismatch(message, "MCP-Protocol-Version is required on every request but initialize.");',
        "return { modern: false };",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/modern.test.ts",
    claim: "cover each protocol edge below",
    shownBy: [
      "answers server/discover with every version it speaks, its capabilities and its caching hints",
      "refuses an Mcp-Method other than the method with 400 and -32020 (HeaderMismatch), running nothing",
      "refuses an MCP-Protocol-Version of 2026-07-28 on a message whose _meta names none: a required field is missing (-32602)",
      "serves a request whose _meta names 2025-11-25, repeated in its header, as that era's",
    ],
    breaks: [
      edit("src/mcp/protocol.ts", "ttlMs: 300_000,", "ttlMs: 3_600_000,"),
      edit("src/mcp/versions.ts", 'if (header("Mcp-Method") !== method)', "if (false)"),
      edit("src/mcp/versions.ts", 'return missing(message, "protocolVersion");', "return { modern: false };"),
      edit("src/mcp/versions.ts", "if (LEGACY_VERSIONS.includes(version)) return { modern: false };", ""),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp-eras.test.ts",
    claim: "runs the official SDK's v2 client pinned to 2026-07-28",
    shownBy: ["discovers the server, lists the tools and calls one, sending the revision's headers, never initialize"],
    breaks: [edit("src/mcp/protocol.ts", 'case "modern server/discover":', 'case "modern server/discover-renamed":')],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp-conformance.test.ts",
    claim: "runs the official conformance suite",
    shownBy: ["passes dns-rebinding-protection"],
    breaks: [edit("src/mcp/routes.ts", "(origin === own.origin && LOOPBACK_HOSTS", "(false && LOOPBACK_HOSTS")],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/live/mcp.test.ts",
    claim: "initializes, lists the tools and lists a page through `list_pets`",
    shownBy: ["POST /mcp initializes, lists the three tools and lists pets through list_pets"],
    breaks: [edit("src/mcp/protocol.ts", 'case "legacy tools/list":', 'case "legacy tools/list-renamed":')],
  },
];
