// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the changes are source text, template literals included.
// The tests that docs/mcp.md cites for stepping up, host by host (./citation.ts says what each entry holds).
import { type Citation, edit } from "./citation";

/** Every refresh answered, a step-up's as well. */
const REFRESH_ANSWERED = edit(
  "src/auth-server/token-request.ts",
  "if (named && (await isStepUp(",
  "if (false && named && (await isStepUp(",
);

export const MCP_STEP_UP: Citation[] = [
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/step-up.test.ts",
    claim: "Both are answered `invalid_grant`",
    shownBy: [
      "after a tool refused its token for scope gets no token, invalid_grant; a new sign-in for more does",
      "that names a scope its grant lacks gets no token, invalid_grant; one that names no more is answered",
    ],
    breaks: [REFRESH_ANSWERED],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp-step-up.test.ts",
    claim: "LangChain's MCP adapters (`@langchain/mcp-adapters`, on the v1 client)",
    shownBy: ["steps up from a read grant to a write call through a new sign-in, with LangChain's MCP adapters"],
    breaks: [REFRESH_ANSWERED],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp-ai-sdk.test.ts",
    claim: "its refresh is refused, it opens a new sign-in",
    shownBy: [
      "signs in through the page, lists the tools, and on a write call's 403 signs in again for every scope when the host asks",
    ],
    breaks: [REFRESH_ANSWERED],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp-remote.test.ts",
    claim: "signs in again at once for `read write`, through the page it prints",
    shownBy: ["signs in through the page, then steps up from a read grant to a write call through a new sign-in"],
    // A challenge that names no scope: the bridge signs in again for what it had.
    breaks: [
      edit(
        "src/oauth/protected-resource.ts",
        'error="insufficient_scope", ${EVERY_SCOPE}, ',
        'error="insufficient_scope", ',
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp-step-up-inspector.test.ts",
    claim: "signs in again, but for the scope its last grant had",
    shownBy: [
      "signs in again on a write call with a read grant, but only for what it was granted, and stops; --relogin signs in for every scope and the call succeeds",
    ],
    breaks: [REFRESH_ANSWERED],
  },
];
