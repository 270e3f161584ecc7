// The tests that docs/mcp.md cites for its sign-in with OAuth: the page, its refusals and
// what a host is told (./citation.ts says what each entry holds); its tokens: ./mcp-tokens.ts.
import { type Citation, edit } from "./citation";

export const MCP_SIGN_IN: Citation[] = [
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
    test: "test/e2e/local/oauth-refusals.test.ts",
    claim: "no token says which key it came from",
    shownBy: ["gives tokens that do not say which key they came from: two apps signed in with one key cannot tell"],
    breaks: [edit("src/auth-server/sign-in.ts", "const userId = newGrantUser();", "const userId = key.hash;")],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-registrations.test.ts",
    claim: "Neither refusal stores anything",
    shownBy: ["is taken at 5 KiB, and refused with 413 one byte over, storing nothing"],
    breaks: [
      edit(
        "src/auth-server/strangers.ts",
        "export const MAX_REGISTRATION_BYTES = 5120;",
        "export const MAX_REGISTRATION_BYTES = 5121;",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-strangers.test.ts",
    claim: "Neither refusal stores anything",
    shownBy: ["count on the unknown-key throttle: 60 a minute, then 429 with Retry-After, storing nothing"],
    breaks: [
      edit("src/auth-server/strangers.ts", "if (!storesForStranger(request, path)) return request;", "return request;"),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-strangers.test.ts",
    claim: "counts as its `GET` and stores nothing",
    shownBy: [
      "count on the unknown-key throttle: 60 a minute, then 429 with Retry-After, storing nothing",
      "answers the page's status and headers and stores nothing, where its GET stores the form's record",
    ],
    breaks: [
      edit(
        "src/auth-server/strangers.ts",
        '(request.method === "GET" || request.method === "HEAD")',
        'request.method === "GET"',
      ),
      edit("src/auth-server/sign-in.ts", 'if (request.method === "HEAD") {', "if (false) {"),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-registrations.test.ts",
    claim: "names in every script are taken",
    shownBy: [
      "is refused with 400 when it repeats a member or nests past 32 levels, storing nothing",
      "is refused a client_name with a control or bidirectional character, storing nothing; any script is taken",
    ],
    breaks: [
      edit("src/auth-server/strangers.ts", "const problem = registrationProblem(body);", "const problem = undefined;"),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-hosts.test.ts",
    claim: "Any other is refused at registration",
    shownBy: ["is refused at registration, beside a callback that would be taken too"],
    breaks: [edit("src/auth-server/redirect-schemes.ts", 'scheme.includes(".") ||', "true ||")],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-hosts.test.ts",
    claim: "named before that was asked, are taken by name",
    shownBy: ["Cursor registers, signs in, gets a token and calls a tool"],
    breaks: [
      edit(
        "src/auth-server/redirect-schemes.ts",
        'export const ONE_WORD_HOST_SCHEMES = ["cursor", "vscode", "vscode-insiders"];',
        "export const ONE_WORD_HOST_SCHEMES: string[] = [];",
      ),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/worker/mcp/sign-in-routes.test.ts",
    claim: "public, and cacheable for an hour",
    shownBy: ["is served at the well-known path and at its /mcp form, public, for an hour"],
    breaks: [edit("src/oauth/protected-resource.ts", '"public, max-age=3600"', '"public, max-age=60"')],
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
    test: "test/e2e/local/oauth.test.ts",
    claim: "runs this whole flow with the official SDK's v2 client",
    shownBy: [
      "registers itself (RFC 7591), signs in on the page in Chromium, calls tools, refreshes, and loses its access with the key",
      "signs in with a Client ID Metadata Document as its client_id, and refuses a callback with a forged iss",
    ],
    breaks: [
      edit(
        "src/mcp/key-or-token-auth.ts",
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
      "says, before granting anything, that a read-only key asked for read and write may do read only; allowed again, grants read",
      "refuses a key that may do none of what is asked, granting nothing",
      "refuses a scope this API does not have, showing no form: the page links back to the app with invalid_scope",
      "takes PKCE with S256 only: a plain challenge's page links back to the app with invalid_request",
      "gives a resource other than this host's /mcp a page linking back to the app with invalid_target",
      "refuses a form posted without the cookie of the browser that opened it (cross-site forgery)",
    ],
    breaks: [
      edit("src/auth-server/sign-in.ts", "if (scopes.length === 0)", "if (false)"),
      edit("src/auth-server/scopes.ts", "asked.filter((scope) => own.includes(scope))", "[...asked]"),
      edit("src/auth-server/scopes.ts", "if (unknown !== undefined) {", "if (false) {"),
      edit(
        "src/auth-server/sign-in.ts",
        "if (error instanceof AuthorizationError) return page(problemPage(error.description, error.redirectTo), 400);",
        'if (error instanceof AuthorizationError) return redirect(error.redirectTo ?? "https://attacker.example/cb");',
      ),
      edit("src/mcp/key-or-token-auth.ts", "if (!granted) throw unknownToken();", "if (!granted) return;"),
    ],
  },
  {
    page: "docs/mcp.md",
    test: "test/e2e/local/oauth-refusals.test.ts",
    claim: "`offline_access`, which hosts add for a refresh token, asks for nothing here",
    shownBy: [
      "takes offline_access as asking for nothing (a refresh token is always given), and no scope as the key's",
    ],
    breaks: [edit("src/auth-server/scopes.ts", "scope !== REFRESH_SCOPE && ", "")],
  },
];
