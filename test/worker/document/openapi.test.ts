import { describe, expect, it } from "vitest";
import openapi from "../../../openapi.json";
import { app } from "../../../src/app";
import { DEPRECATIONS } from "../../../src/deprecation/deprecated-operation";
import { sha256Hex } from "../../../src/lib/sha256";
import { signInRoutes } from "../../../src/oauth/protected-resource";
import { conformanceProblems } from "../../helpers/conformance";
import { BASE_URL, call, createApiKey } from "../../helpers/index";

/** docs/api.md: an If-None-Match over 1,024 characters is not compared (written here, not imported). */
const IF_NONE_MATCH_MAX_LENGTH = 1024;

const _GET_PET_SUNSET = new Date(DEPRECATIONS.getPet.sunset);

const PREFIX = "/v1";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

describe("openapi.json and the app", () => {
  it("describe the same routes, both ways", () => {
    // Middleware is registered for ALL methods; a route has an entry per handler. POST /mcp
    // speaks MCP's JSON-RPC, which the MCP specification describes, not OpenAPI (docs/mcp.md);
    // OAuth's paths serve the documents and pages that their RFCs describe; the bare addresses,
    // `/` and `/v1`, only point to the document (src/document/api-index.ts), and are not under its server's /v1/.
    const outside = new Set(["/mcp", "/", "/v1", ...signInRoutes.routes.map(({ path }) => path)]);
    const routes = new Set(
      app.routes
        .filter(({ method, path }) => method !== "ALL" && !outside.has(path))
        .map(({ method, path }) => `${method} ${path.replaceAll(/:(\w+)/g, "{$1}")}`),
    );
    const documented = Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${PREFIX}${path}`),
    );
    expect([...routes].sort()).toEqual([...documented].sort());
  });

  it("name the three operations of the interface, and mark getPet deprecated", () => {
    expect(openapi.paths["/pets"].get.operationId).toBe("listPets");
    expect(openapi.paths["/pets"].post.operationId).toBe("createPet");
    expect(openapi.paths["/pets/{petId}"].get).toMatchObject({ operationId: "getPet", deprecated: true });
    expect(openapi.info.version).toBe("1.0.0");
  });
});

describe("GET /v1/openapi.json", () => {
  it("answers the document without an API key, with a strong ETag and Cache-Control", async () => {
    const response = await call("/v1/openapi.json", { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=300");
    const body = await response.text();
    expect(response.headers.get("ETag")).toBe(`"${await sha256Hex(body)}"`);
    expect(JSON.parse(body)).toEqual(openapi);
  });

  it("ignores credentials, even invalid ones", async () => {
    const response = await call("/v1/openapi.json", { headers: { Authorization: "Bearer nonsense" } });
    expect(response.status).toBe(200);
  });

  it("answers 304 without a body when If-None-Match holds the current ETag", async () => {
    const etag = (await call("/v1/openapi.json")).headers.get("ETag") ?? "";
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const response = await call("/v1/openapi.json", { headers: { "If-None-Match": ifNoneMatch } });
      expect(response.status, ifNoneMatch).toBe(304);
      expect(response.headers.get("ETag")).toBe(etag);
      expect(await response.text()).toBe("");
    }
    const changed = await call("/v1/openapi.json", { headers: { "If-None-Match": '"an-older-version"' } });
    expect(changed.status).toBe(200);
  });

  it("compares no If-None-Match longer than the document states: the document is sent in full", async () => {
    const etag = (await call("/v1/openapi.json")).headers.get("ETag") ?? "";
    const padding = `"${"x".repeat(IF_NONE_MATCH_MAX_LENGTH - etag.length - 4)}", `;
    const atBound = await call("/v1/openapi.json", { headers: { "If-None-Match": padding + etag } });
    expect(atBound.status).toBe(304);
    const over = await call("/v1/openapi.json", { headers: { "If-None-Match": `"x${padding.slice(1)}${etag}` } });
    expect(over.status).toBe(200);
    expect(((await over.json()) as { openapi: string }).openapi).toBe("3.1.1");
  });

  it("answers HEAD like GET, without a body", async () => {
    const response = await call("/v1/openapi.json", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("ETag")).not.toBeNull();
    expect(await response.text()).toBe("");
  });
});

describe("GET /v1/docs", () => {
  const page = async () => {
    const response = await call("/v1/docs", { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    return response.text();
  };
  const operations = Object.values(openapi.paths).flatMap((item) => Object.values(item));
  const newPetExample = openapi.paths["/pets"].post.requestBody.content["application/json"].example;

  it("is one page that runs no script and loads nothing from anywhere", async () => {
    const response = await call("/v1/docs", { key: null });
    const policy = response.headers.get("Content-Security-Policy");
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain("script-src");
    const html = await response.text();
    expect(html).not.toMatch(/<script/i);
    const references = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map(([, url]) => url ?? "");
    expect(references.filter((url) => !/^(#|data:|https:\/\/petstore\.test\/)/.test(url))).toEqual([]);
  });

  it("renders every operation of the document, with its parameters and responses", async () => {
    const html = await page();
    expect(operations).toHaveLength(5);
    for (const { operationId, summary } of operations) {
      expect(html).toContain(`id="${operationId}"`);
      expect(html).toContain(`<span class="summary">${summary}</span>`);
    }
    expect(html).toMatch(/<section class="operation deprecated" id="getPet">/);
    expect(html.match(/class="operation deprecated"/g)).toHaveLength(1);
    for (const name of ["limit", "status", "cursor", "x-d1-bookmark", "Idempotency-Key", "petId"])
      expect(html).toContain(`<code>${name}</code>`);
    for (const schema of Object.keys(openapi.components.schemas)) expect(html).toContain(`id="schema-${schema}"`);
    expect(html).toContain("<code>idempotency_key_reused</code>");
  });

  it("escapes the document's text as HTML", async () => {
    const html = await page();
    expect(openapi.info.description).toContain("<?{query}>");
    expect(html).toContain("&lt;?{query}&gt;");
    expect(html).not.toContain("<?{query}>");
  });

  it("gives curl examples for the host it is served from; the createPet example creates a pet", async () => {
    const html = await page();
    expect(html).toContain(`curl -i &#39;${BASE_URL}/v1/pets`);
    expect(html).toContain(`-d &#39;${JSON.stringify(newPetExample).replaceAll('"', "&quot;")}&#39;`);
    const response = await call("/v1/pets", { method: "POST", key: await createApiKey(), json: newPetExample });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject(newPetExample);
  });
});

describe.each(["/v1/openapi.json", "/v1/docs"])("%s", (path) => {
  it.each(["POST", "PUT", "DELETE"])("answers %s with 405 and Allow", async (method) => {
    const response = await call(path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, HEAD");
  });
});

describe("the conformance check of test/helpers/index.ts", () => {
  const request = (path: string, method = "GET") => new Request(`${BASE_URL}${path}`, { method });
  const pet = { id: 1, name: "Rex", categoryId: 2, status: "sold" };
  const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
    Response.json(body, {
      status,
      headers: { "X-Request-Id": "request-1", "X-Content-Type-Options": "nosniff", ...headers },
    });
  const noStore = { "Cache-Control": "no-store" };
  const deprecation = {
    Deprecation: openapi.components.headers.Deprecation.schema.const,
    Sunset: openapi.components.headers.Sunset.schema.const,
    Link: '<../pets>; rel="successor-version"',
  };
  const error = (status: number, code: string) => ({ code, message: "m", status });

  it("accepts what the document describes", async () => {
    expect(await conformanceProblems(request("/v1/pets"), json([pet], 200, noStore))).toEqual([]);
    expect(await conformanceProblems(request("/v1/pets/1"), json(pet, 200, { ...deprecation, ...noStore }))).toEqual(
      [],
    );
    expect(await conformanceProblems(request("/v1/nowhere"), json(error(404, "not_found"), 404))).toEqual([]);
    const notAllowed = json(error(405, "method_not_allowed"), 405, { Allow: "GET, HEAD, POST", ...noStore });
    expect(await conformanceProblems(request("/v1/pets", "PUT"), notAllowed)).toEqual([]);
  });

  it.each([
    [
      "an undeclared status",
      request("/v1/pets"),
      json(error(404, "not_found"), 404),
      "does not declare the status 404",
    ],
    ["a body against its schema", request("/v1/pets"), json([{ ...pet, id: 0 }], 200), "body #/0/id"],
    ["an extra field", request("/v1/pets"), json([{ ...pet, colour: "brown" }], 200), "body #/0"],
    ["an error code of another status", request("/v1/pets"), json(error(400, "not_found"), 400), "body #/code"],
    ["a status that the body does not repeat", request("/v1/pets"), json(error(500, "invalid_request"), 400), "body"],
    ["a missing required header", request("/v1/pets/1"), json(pet, 200), "header Deprecation is missing"],
    ["an undeclared header", request("/v1/pets"), json([], 200, { "X-Extra": "1" }), "x-extra is not declared"],
    ["an invalid header value", request("/v1/pets"), json([], 200, { Link: "next" }), 'header Link "next"'],
    ["an undeclared media type", request("/v1/pets"), new Response("[]", { status: 200 }), "media type"],
    ["another status on an unknown path", request("/v1/nowhere"), json(error(400, "invalid_request"), 400), "404"],
  ])("refuses %s", async (_, sent, response, mentions) => {
    const problems = await conformanceProblems(sent, response);
    expect(problems.join("\n")).toContain(mentions);
  });
});
