// The tests that docs/mcp.md cites for the tokens of its sign-in with OAuth: the token
// endpoint, their lifetimes, an access token at /mcp, a key's grants (./citation.ts says what
// each entry holds); the page and its refusals: ./mcp-sign-in.ts.
import { type Citation, edit } from "./citation";

export const MCP_TOKENS: Citation[] = [
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/token-request.test.ts",
    claim: "A request to the token endpoint may be at most 16 KiB",
    shownBy: ["is read to 16 KiB, and refused with 413 one byte over, before the library sees it"],
    breaks: [
      edit(
        "src/auth-server/token-request.ts",
        "export const MAX_TOKEN_REQUEST_BYTES = 16_384;",
        "export const MAX_TOKEN_REQUEST_BYTES = 16_385;",
      ),
      edit(
        "src/auth-server/token-request.ts",
        "export const MAX_TOKEN_REQUEST_BYTES = 16_384;",
        "export const MAX_TOKEN_REQUEST_BYTES = 16_383;",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/operator-scripts.test.ts",
    claim: "removes one: its refreshes and sign-ins are refused at once",
    shownBy: [
      "apps lists the registered apps and removes one, which ends its refreshes at once; a failed write is said",
    ],
    breaks: [edit("scripts/lib/app-registrations.ts", "    await store.delete(name);", "")],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/token-request.test.ts",
    claim: "for every client, confidential ones too",
    shownBy: [
      "needs PKCE, as a public client's does: without a code_challenge the page links back with invalid_request",
    ],
    breaks: [edit("src/auth-server/sign-in.ts", "if (!request.codeChallenge)", "if (false)")],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/grant-revocations.test.ts",
    claim: "second time, revokes the grant, its newest tokens",
    shownBy: [
      "used a second time revokes its grant: the copy, its successor and their access tokens all end",
      "of any rotation back, used again, revokes its grant: after three rotations, the first ends the newest",
    ],
    breaks: [
      edit(
        "src/auth-server/grant-revocations.ts",
        "if (reused) await oauth.revokeGrant",
        "if (false) await oauth.revokeGrant",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/grant-revocations.test.ts",
    claim: "while one its grant never issued revokes nothing",
    shownBy: ["that its grant never issued is refused, and revokes nothing"],
    breaks: [
      edit(
        "src/auth-server/grant-revocations.ts",
        "const reused = grant.previousRefreshTokenId === tokenId ||",
        "const reused = true ||",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/grant-revocations.test.ts",
    claim: "fails its PKCE challenge is used up",
    shownBy: ["is used up: the right code_verifier after a wrong one gets no token (RFC 9700)"],
    breaks: [
      edit(
        "src/auth-server/grant-revocations.ts",
        "if ((await s256(verifier)) === grant.codeChallenge) return false;",
        "return false;",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/token-request.test.ts",
    claim: "from the moment it is revoked",
    shownBy: ["gives no tokens for its code", "refreshes no more"],
    breaks: [
      edit(
        "src/auth-server/lifetimes.ts",
        "  if (!verdict.admitted) {\n    throw new OAuthError(",
        '  if (!verdict.admitted && verdict.refusal !== "expired") {\n    throw new OAuthError(',
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/token-request.test.ts",
    claim: "the token endpoint takes that as one way of authenticating",
    shownBy: ["gets its tokens with its client_id repeated in the form, and refreshes alike (Python's mcp client)"],
    breaks: [edit("src/auth-server/token-request.ts", 'form.delete("client_id");', "")],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/token-request.test.ts",
    claim: "another `client_id`, or a `client_secret` in the form beside Basic, is refused as two",
    shownBy: [
      "is refused another client_id beside Basic, and a client_secret beside it, as two ways of authenticating",
    ],
    // Any client_id taken for Basic's: another one is dropped, and Basic alone lets it through.
    breaks: [
      edit(
        "src/auth-server/token-request.ts",
        'form.getAll("client_id").length === 1 && form.get("client_id") === basicId',
        'form.has("client_id")',
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/lifetimes.test.ts",
    claim: "a key that ends within a minute gives none",
    shownBy: [
      "are 15 minutes and 30 days while the key lives longer, from both sides",
      "give a key that ends within a minute a minute's access token and no refresh token",
    ],
    breaks: [
      edit("src/auth-server/lifetimes.ts", "ACCESS_TOKEN_TTL_S = 900;", "ACCESS_TOKEN_TTL_S = 901;"),
      edit("src/auth-server/lifetimes.ts", "SHORTEST_TTL_S = 60;", "SHORTEST_TTL_S = 59;"),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/token-faults.test.ts",
    claim: "tokens get 503 with",
    shownBy: ["gets 503 with Retry-After, never 401, while the sign-in Worker throws or hangs; a key carries on"],
    breaks: [
      edit(
        "src/mcp/key-or-token-auth.ts",
        '    logDependencyFault(checkContext, "AUTH", error, "503");\n    throw unavailable("Signing in");',
        '    logDependencyFault(checkContext, "AUTH", error, "503");\n    throw unknownToken();',
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/token-count.test.ts",
    claim: "counted and refused without being looked up",
    shownBy: ["is counted and refused unasked when longer than 256 characters, and asked about at 256"],
    breaks: [
      edit(
        "src/mcp/key-or-token-auth.ts",
        "export const MAX_ACCESS_TOKEN_LENGTH = 256;",
        "export const MAX_ACCESS_TOKEN_LENGTH = 512;",
      ),
    ],
  },
];
