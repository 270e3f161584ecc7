// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the changes are source text, template literals included.
// The tests that docs/api.md cites for the document, the reference page and routing (./citation.ts says what each entry holds).
import { type Citation, edit } from "./citation";

export const API_DOCUMENT: Citation[] = [
  {
    page: "docs/api.md",
    test: "test/worker/document/reference-page.test.ts",
    claim: "check the links, the examples, the sticky contents",
    shownBy: ["has no link to a missing anchor, no id twice, and a heading that links to itself in each section"],
    breaks: [edit("src/document/reference-page/html.ts", 'href="#${id}"', 'href="#to-${id}"')],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/docs-page.test.ts",
    claim: "check the links, the examples, the sticky contents",
    shownBy: ["keeps the contents in reach at the bottom of the page: a sidebar on a wide screen"],
    breaks: [edit("src/document/reference-page/style.ts", ".contents{position:sticky;", ".contents{position:static;")],
  },
  {
    page: "docs/api.md",
    test: "test/worker/document/openapi-examples.test.ts",
    claim: "sends the request behind each error example, expecting that exact body",
    shownBy: ["listPets 401 is what the service answers"],
    breaks: [
      edit(
        "src/http/api-key-auth.ts",
        "Send an API key as 'Authorization: Bearer <key>'.",
        "Send an API key in 'Authorization: Bearer <key>'.",
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/helpers/conformance.test.ts",
    claim: "Every answer of the tests checked against it, HEAD and plain OPTIONS included",
    shownBy: ["checks a plain OPTIONS answered 204, and leaves out only a preflight's answer"],
    breaks: [
      edit(
        "test/helpers/conformance.ts",
        'const isPreflight = request.headers.has("origin") && request.headers.has("access-control-request-method");',
        "const isPreflight = true;",
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/browser.test.ts",
    claim: "in Chromium by `watchApiAnswers()`",
    shownBy: ["reads the 404 of unknown paths, preflights included"],
    breaks: [
      edit(
        "src/http/errors.ts",
        "`No route matches ${c.req.method} ${excerpt(c.req.path, 64)}.`));",
        '`No route matches ${c.req.method} ${excerpt(c.req.path, 64)}.`, { "X-Undeclared": "1" }));',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/docs-page.test.ts",
    claim: "in Chromium by `watchApiAnswers()`",
    shownBy: ["renders the three operations from this host alone"],
    breaks: [
      edit(
        "src/document/routes.ts",
        '{ "Content-Security-Policy": PAGE_CONTENT_SECURITY_POLICY }',
        '{ "Content-Security-Policy": PAGE_CONTENT_SECURITY_POLICY, "X-Undeclared": "1" }',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/document/openapi.test.ts",
    claim: "Routes and document agree, both ways",
    shownBy: ["describe the same routes, both ways"],
    breaks: [edit("openapi.json", '"/pets/{petId}": {', '"/pets/{id}": {')],
  },
  {
    page: "docs/api.md",
    test: "test/node/document/openapi-lint.test.ts",
    claim: "the document validates against the official OpenAPI 3.1 schema",
    shownBy: ["is valid against the official OpenAPI 3.1 JSON Schema and its Schema Object dialect"],
    breaks: [edit("openapi.json", '"openapi": "3.1.1",', '"openapi": "3.1.1", "paths2": 1,')],
  },
  {
    page: "docs/api.md",
    test: "test/node/document/openapi-lint.test.ts",
    claim: "requires `RateLimit-Policy` on every answer of the pets operations",
    shownBy: ["would fail Spectral's rules if a limit, a CORS header or the rate-limit policy went undescribed"],
    breaks: [
      edit(
        ".spectral.mjs",
        'then: { field: "headers.RateLimit-Policy", function: truthy },',
        'then: { field: "headers", function: truthy },',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/node/document/prism-mock.test.ts",
    claim: "answers every response of the three pets operations from the document's examples",
    shownBy: ["prism mock openapi.json answers createPet 201 with its example, finding nothing wrong"],
    breaks: [
      edit(
        "openapi.json",
        '"name": "Rex",\n                "categoryId": 1,',
        '"name": "Rex",\n                "categoryId": "one",',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/http/routing.test.ts",
    claim: "405 with `Allow` (`HEAD` is answered like `GET`)",
    shownBy: ["answers 405 with Allow for DELETE /v1/pets, to a key of any scopes"],
    breaks: [
      edit(
        "src/http/errors.ts",
        'Allow: methods.join(", "),',
        'Allow: methods.filter((method) => method !== "HEAD").join(", "),',
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/e2e/local/path-prefix.test.ts",
    claim: "under a gateway's path prefix too",
    shownBy: [
      "each next link, resolved against the request's URL, is the next page under the prefix",
      "a new pet's Location, resolved against the request's URL, is the pet under the prefix",
    ],
    breaks: [
      edit("src/rest/routes.ts", 'return `<${search}>; rel="next"`;', 'return `</v1/pets${search}>; rel="next"`;'),
      edit(
        "src/rest/routes.ts",
        "const locationOf = (id: number) => `pets/${id}`;",
        "const locationOf = (id: number) => `/v1/pets/${id}`;",
      ),
    ],
  },
  {
    page: "docs/api.md",
    test: "test/worker/keys/auth.test.ts",
    claim: 'with `error="invalid_token"` and an `error_description`',
    shownBy: ["answers 401 for a well-formed key that was never issued, with its challenge"],
    breaks: [
      edit("src/http/api-key-auth.ts", ', error="invalid_token", error_description="The API key is not valid"', ""),
    ],
  },
];
