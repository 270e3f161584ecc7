// The tests that docs/mcp.md cites (./citation.ts says what each entry holds).
import { type Citation, edit } from "./citation";

export const MCP: Citation[] = [
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
    test: "test/e2e/local/oauth.test.ts",
    claim: 'It prints "Please navigate to:" and the sign-in page\'s address',
    shownBy: [
      "signs the MCP Inspector's CLI in from a terminal: the address it prints, the page in a browser, then the tools",
    ],
    breaks: [edit("src/auth-server/sign-in.ts", "if (!request.codeChallenge)", "if (request.codeChallenge)")],
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
    test: "test/e2e/local/oauth-refusals.test.ts",
    claim: "no token says which key it came from",
    shownBy: ["gives tokens that do not say which key they came from: two apps signed in with one key cannot tell"],
    breaks: [edit("src/auth-server/sign-in.ts", "const userId = newGrantUser();", "const userId = key.hash;")],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/keys/auth.test.ts",
    claim: "which takes API keys only",
    shownBy: ["tells a credential without a key's prefix, an access token most likely, that /v1 takes API keys"],
    breaks: [edit("src/keys/authenticate.ts", "if (!isApiKeyCredential(token)) {", "if (false) {")],
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
    test: "test/worker/mcp/token-request.test.ts",
    claim: "one used a second time revokes its grant",
    shownBy: [
      "used a second time revokes its grant: the copy, its successor and their access tokens all end",
      "that its grant never issued is refused, and revokes nothing",
      "gives no tokens for its code",
      "refreshes no more",
    ],
    breaks: [
      edit(
        "src/auth-server/lifetimes.ts",
        "  if (!verdict.admitted) {\n    throw new OAuthError(",
        '  if (!verdict.admitted && verdict.refusal !== "expired") {\n    throw new OAuthError(',
      ),
      edit("src/auth-server/token-request.ts", "await oauth.revokeGrant(named.grantId, named.userId);", ""),
      edit(
        "src/auth-server/token-request.ts",
        "if (grant?.previousRefreshTokenId !== named.tokenId) return false;",
        "if (!grant) return false;",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/token-request.test.ts",
    claim: "the token endpoint takes that as one way of authenticating",
    shownBy: [
      "gets its tokens with its client_id repeated in the form, and refreshes alike (Python's mcp client)",
      "is refused another client_id beside Basic, and a client_secret beside it, as two ways of authenticating",
    ],
    breaks: [
      edit("src/auth-server/token-request.ts", 'form.delete("client_id");', ""),
      edit("src/auth-server/token-request.ts", 'if (!repeatsBasic || form.has("client_secret"))', "if (false)"),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-strangers.test.ts",
    claim: "Neither refusal stores anything",
    shownBy: [
      "is taken at 5 KiB, and refused with 413 one byte over, storing nothing",
      "count on the unknown-key throttle: 60 a minute, then 429 with Retry-After, storing nothing",
    ],
    breaks: [
      edit(
        "src/auth-server/strangers.ts",
        "export const MAX_REGISTRATION_BYTES = 5120;",
        "export const MAX_REGISTRATION_BYTES = 5121;",
      ),
      edit(
        "src/auth-server/strangers.ts",
        "export const MAX_REGISTRATION_BYTES = 5120;",
        "export const MAX_REGISTRATION_BYTES = 5119;",
      ),
      edit("src/auth-server/strangers.ts", "if (!storesForStranger(request, path)) return request;", "return request;"),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-routes.test.ts",
    claim: "public, and cacheable for an hour",
    shownBy: ["is served at the well-known path and at its /mcp form, public, for an hour"],
    breaks: [edit("src/mcp/sign-in.ts", '"public, max-age=3600"', '"public, max-age=60"')],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-form.test.ts",
    claim: "The sign-in page's form may be at most 16 KiB too",
    shownBy: [
      "may be at most 16 KiB: one byte more is 413, read to its end",
      "is read from a form, url-encoded or multipart; anything else is 415",
    ],
    breaks: [
      edit("src/auth-server/sign-in.ts", "MAX_FORM_BYTES = 16_384;", "MAX_FORM_BYTES = 16_383;"),
      edit("src/auth-server/sign-in.ts", 'type !== "multipart/form-data"', 'type !== "multipart/form"'),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-bodies.test.ts",
    claim: "and so is a body that the answer does not need",
    shownBy: ["reads a body to its end before a refusal that needs none of it"],
    breaks: [edit("src/auth-server/worker.ts", "    await discardBody(request);\n", "")],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/scopes.test.ts",
    claim: "its description repeats at most the first 64 characters of the scope",
    shownBy: ["refuse any other, repeating at most 64 characters of it"],
    breaks: [edit("src/auth-server/scopes.ts", "SHOWN_SCOPE_LENGTH = 64;", "SHOWN_SCOPE_LENGTH = 65;")],
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
    test: "test/worker/mcp/metadata-fetch.test.ts",
    claim: "the sign-in Worker follows no redirect to it and takes only a `200` of `application/json`",
    shownBy: [
      "is asked not to follow redirects, and hands a redirect on as a failure",
      "hands on any other status, or any other type, as a failure",
    ],
    breaks: [
      edit("src/auth-server/metadata-fetch.ts", '{ ...init, redirect: "manual" }', "init"),
      edit("src/auth-server/metadata-fetch.ts", "response.status === 200 && ", "response.ok && "),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/oauth-metadata-documents.test.ts",
    claim: "at most 5 KiB, as the CIMD draft says",
    shownBy: ["takes no answer but a 200 of application/json (/html.json)"],
    breaks: [edit("src/auth-server/metadata-fetch.ts", "/^application\\/json[\\t ]*(;|$)/i", "/./")],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/mcp.test.ts",
    claim: "runs an agent's session and this page's local recipe",
    shownBy: [
      "lists the tools, pages through the pets, creates one once for a repeated key, and is told get_pet is deprecated",
    ],
    breaks: [edit("src/mcp/call.ts", "({ pet, idempotencyKey })", "({ pet, idempotencyKey: undefined })")],
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
    breaks: [edit("src/mcp/call.ts", "...(Number.isInteger(retryAfter) && { retryAfter }),", "")],
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
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/oauth.test.ts",
    claim: "runs this whole flow with the official SDK's v2 client",
    shownBy: [
      "registers itself (RFC 7591), signs in on the page in Chromium, calls tools, refreshes, and loses its access with the key",
      "signs in with a Client ID Metadata Document as its client_id, and refuses a callback with a forged iss",
    ],
    breaks: [
      edit(
        "src/mcp/door.ts",
        "await (isApiKeyCredential(token) ? admitApiKey(c, token) : admitToken(c, token));",
        "await admitApiKey(c, token);",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/oauth-refusals.test.ts",
    claim: "a redirect URI that the app did not register",
    shownBy: [
      "never redirects to a redirect URI the app did not register",
      "refuses an expired access token, which a refresh replaces",
      "accepts a token only at the resource it was issued for: this host's /mcp, not /v1, nor another host",
      "shows the scopes asked for and grants no more: a read-only key asked for read and write gets read",
      "refuses a key that may do none of what is asked, granting nothing",
      "refuses a scope this API does not have, showing no form: the page links back to the app with invalid_scope",
      "takes PKCE with S256 only: a plain challenge's page links back to the app with invalid_request",
      "gives a resource other than this host's /mcp a page linking back to the app with invalid_target",
      "takes offline_access as asking for nothing (a refresh token is always given), and no scope as the key's",
      "refuses a form posted without the cookie of the browser that opened it (cross-site forgery)",
    ],
    breaks: [
      edit("src/auth-server/sign-in.ts", "if (scopes.length === 0)", "if (false)"),
      edit("src/auth-server/scopes.ts", "asked.filter((scope) => own.includes(scope))", "[...asked]"),
      edit("src/auth-server/scopes.ts", "if (unknown !== undefined) {", "if (false) {"),
      edit("src/auth-server/scopes.ts", "scope !== REFRESH_SCOPE && ", ""),
      edit(
        "src/auth-server/sign-in.ts",
        "if (error instanceof AuthorizationError) return page(problemPage(error.description, error.redirectTo), 400);",
        'if (error instanceof AuthorizationError) return redirect(error.redirectTo ?? "https://attacker.example/cb");',
      ),
      edit("src/mcp/door.ts", "if (!granted) throw unknownToken();", "if (!granted) return;"),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in.test.ts",
    claim: "tokens get 503 with",
    shownBy: ["gets 503 with Retry-After, never 401, while the sign-in Worker throws or hangs; a key carries on"],
    breaks: [
      edit(
        "src/mcp/door.ts",
        '    logDependencyFault(asker, "AUTH", error, "503");\n    throw unavailable("Signing in");',
        '    logDependencyFault(asker, "AUTH", error, "503");\n    throw unknownToken();',
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
        "src/mcp/door.ts",
        "export const MAX_ACCESS_TOKEN_LENGTH = 256;",
        "export const MAX_ACCESS_TOKEN_LENGTH = 512;",
      ),
    ],
  },
];
