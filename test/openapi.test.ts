import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import openapi from "../openapi.json";
import { DEPRECATIONS } from "../src/deprecation";
import { ERROR_STATUS, type ErrorCode } from "../src/error-codes";
import { app } from "../src/index";
import { MAX_BODY_BYTES } from "../src/json-body";

import {
  createPetHeadersSchema,
  errorSchema,
  listPetsQuerySchema,
  newPetSchema,
  petParamsSchema,
  petSchema,
  sessionHeadersSchema,
} from "../src/schemas";
import { sha256Hex } from "../src/sha256";
import { conformanceProblems } from "./conformance";
import { BASE_URL, call, createApiKey, faultLogLines } from "./helpers";
import { d1Error, failing } from "./wrap-bindings";

const GET_PET_SUNSET = new Date(DEPRECATIONS.getPet.sunset);

const PREFIX = "/v1";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

describe("openapi.json and the app", () => {
  it("describe the same routes, both ways", () => {
    // Middleware is registered for ALL methods; a route has an entry per handler.
    const routes = new Set(
      app.routes
        .filter(({ method }) => method !== "ALL")
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

describe("the examples of openapi.json", () => {
  type Reference = { $ref: string };
  type Parameter = { name: string; in: string; example?: unknown };
  type Media = { schema: Partial<Reference>; example?: unknown; examples?: Record<string, Reference> };
  type Operation = {
    operationId: string;
    parameters?: (Parameter | Reference)[];
    requestBody?: { content: Record<string, Media> };
    responses: Record<string, { content?: Record<string, Media> } | Reference>;
  };
  const document = openapi as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components: { parameters: Record<string, Parameter>; examples: Record<string, { value: unknown }> };
  };
  const PETS_OPERATIONS = ["listPets", "createPet", "getPet"];
  const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
  // Error responses shared through components carry no example: no pets operation uses them.
  const inline = <T extends object>(value: T | Reference): T | undefined => ("$ref" in value ? undefined : value);
  const component = <T>(components: Record<string, T>, { $ref }: Reference) => components[$ref.split("/").at(-1) ?? ""];
  const parameterOf = (value: Parameter | Reference) =>
    inline(value) ?? (component(document.components.parameters, value as Reference) as Parameter);
  /** A body's example: its own, or the one it shares from components.examples. */
  const exampleOf = ({ example, examples = {} }: Media) =>
    example ?? Object.values(examples).map((reference) => component(document.components.examples, reference)?.value)[0];

  /** The zod schema that each parameter is validated with, and the value as a request carries it. */
  const PARAMETERS: Record<string, { schema: z.ZodMiniType; input: (example: unknown) => unknown }> = {
    "query limit": { schema: listPetsQuerySchema, input: (limit) => ({ limit: String(limit) }) },
    "query status": { schema: listPetsQuerySchema, input: (status) => ({ status }) },
    "query cursor": { schema: listPetsQuerySchema, input: (cursor) => ({ cursor }) },
    "path petId": { schema: petParamsSchema, input: (petId) => ({ petId: String(petId) }) },
    "header x-d1-bookmark": { schema: sessionHeadersSchema, input: (bookmark) => ({ "x-d1-bookmark": bookmark }) },
    "header idempotency-key": { schema: createPetHeadersSchema, input: (key) => ({ "idempotency-key": key }) },
    // No route validates it: an ETag that the document could have had.
    "header if-none-match": {
      schema: z.string().check(z.regex(new RegExp(openapi.components.headers.ETag.schema.pattern))),
      input: (etag) => etag,
    },
  };
  const BODIES: Record<string, z.ZodMiniType> = {
    "#/components/schemas/NewPet": newPetSchema,
    "#/components/schemas/Pet": petSchema,
    "#/components/schemas/Pets": z.array(petSchema),
  };
  const isErrorOf = (status: number, example: unknown) => {
    const body = errorSchema.safeParse(example);
    return body.success && body.data.status === status && ERROR_STATUS[body.data.code as ErrorCode] === status;
  };

  type Example = { operationId: string; place: string; status?: number; example: unknown; valid: () => boolean };
  const examples: Example[] = operations.flatMap(({ operationId, parameters = [], requestBody, responses }) => [
    ...parameters.map(parameterOf).map(({ name, in: location, example }) => ({
      operationId,
      place: `${location} ${name}`,
      example,
      valid: () => {
        const parameter = PARAMETERS[`${location} ${location === "header" ? name.toLowerCase() : name}`];
        if (!parameter) throw new Error(`No zod schema for the parameter ${name}: add it to PARAMETERS.`);
        return parameter.schema.safeParse(parameter.input(example)).success;
      },
    })),
    ...Object.values(requestBody?.content ?? {}).map((media) => {
      const example = exampleOf(media);
      return {
        operationId,
        place: "request body",
        example,
        valid: () => BODIES[media.schema.$ref ?? ""]?.safeParse(example).success === true,
      };
    }),
    ...Object.entries(responses).flatMap(([status, response]) =>
      Object.values(inline(response)?.content ?? {}).map((media) => {
        const example = exampleOf(media);
        return {
          operationId,
          place: `${status} body`,
          status: Number(status),
          example,
          valid: () =>
            Number(status) >= 400
              ? isErrorOf(Number(status), example)
              : BODIES[media.schema.$ref ?? ""]?.safeParse(example).success === true,
        };
      }),
    ),
  ]);
  const label = ({ operationId, place }: Example) => `${operationId} ${place}`;

  it("give every parameter, request body and response body of the pets operations one", () => {
    expect(operations.filter(({ operationId }) => PETS_OPERATIONS.includes(operationId))).toHaveLength(3);
    const missing = examples.filter(
      ({ operationId, example }) => PETS_OPERATIONS.includes(operationId) && example === undefined,
    );
    expect(missing.map(label)).toEqual([]);
  });

  it("are valid by the zod schemas that the routes validate with, each error's code agreeing with its status", () => {
    const given = examples.filter(({ example }) => example !== undefined);
    expect(given.length).toBeGreaterThan(20);
    expect(given.filter(({ valid }) => !valid()).map(label)).toEqual([]);
  });

  // Each error that one request provokes, replayed: the example is the service's own
  // answer. 429 and 500 take a flood or a bug; the test above checks their examples.
  const post = (key: string, init: { json?: unknown; body?: string; headers?: Record<string, string> }) =>
    call("/v1/pets", { method: "POST", key, ...init });
  /** The answer while D1 is overloaded (test/faults.test.ts injects the other faults), its log line kept quiet. */
  const whileD1Overloaded = async (send: (bindings: Cloudflare.Env) => Promise<Response>) => {
    // The pets' queries only: getPet's usage is written later, after this answer.
    const overloaded = failing(env, { binding: "DB", sql: /"pets"/, error: d1Error("D1 DB is overloaded.") });
    let response: Response | undefined;
    await faultLogLines(async () => {
      response = await send(overloaded.env);
    });
    return response as Response;
  };
  const asJson = { "Content-Type": "application/json" };
  const REPLAYS: [string, number, (key: string) => Promise<Response>][] = [
    ["listPets", 400, (key) => call("/v1/pets?limit=0", { key })],
    ["listPets", 503, (key) => whileD1Overloaded((bindings) => call("/v1/pets?status=sold", { key, bindings }))],
    ["getPet", 503, (key) => whileD1Overloaded((bindings) => call("/v1/pets/987654", { key, bindings }))],
    [
      "createPet",
      503,
      (key) =>
        whileD1Overloaded((bindings) =>
          call("/v1/pets", {
            method: "POST",
            key,
            json: { name: "Rex", categoryId: 1 },
            headers: { "Idempotency-Key": "overloaded" },
            bindings,
          }),
        ),
    ],
    ["listPets", 401, () => call("/v1/pets")],
    ["listPets", 403, async () => call("/v1/pets", { key: await createApiKey("write only", { scopes: ["write"] }) })],
    [
      "createPet",
      403,
      async () => post(await createApiKey("read only", { scopes: ["read"] }), { json: { name: "Rex", categoryId: 1 } }),
    ],
    ["getPet", 403, async () => call("/v1/pets/1", { key: await createApiKey("write only", { scopes: ["write"] }) })],
    ["listPets", 405, (key) => call("/v1/pets", { method: "DELETE", key })],
    ["createPet", 400, (key) => post(key, { json: { name: "Rex" } })],
    ["createPet", 401, () => call("/v1/pets", { method: "POST", json: { name: "Rex", categoryId: 1 } })],
    ["createPet", 405, (key) => call("/v1/pets", { method: "DELETE", key })],
    ["createPet", 413, (key) => post(key, { body: " ".repeat(MAX_BODY_BYTES + 1), headers: asJson })],
    ["createPet", 415, (key) => post(key, { body: "{}", headers: { "Content-Type": "text/plain" } })],
    [
      "createPet",
      422,
      async (key) => {
        const headers = { "Idempotency-Key": "examples" };
        expect((await post(key, { headers, json: { name: "Rex", categoryId: 1 } })).status).toBe(201);
        return post(key, { headers, json: { name: "Rex", categoryId: 2 } });
      },
    ],
    ["getPet", 400, (key) => call("/v1/pets/0", { key })],
    ["getPet", 401, () => call("/v1/pets/1")],
    ["getPet", 404, (key) => call("/v1/pets/999999", { key })],
    [
      "getPet",
      410,
      async (key) => {
        vi.useFakeTimers({ toFake: ["Date"] });
        vi.setSystemTime(GET_PET_SUNSET);
        try {
          return await call("/v1/pets/1", { key });
        } finally {
          vi.useRealTimers();
        }
      },
    ],
    ["getPet", 405, (key) => call("/v1/pets/1", { method: "DELETE", key })],
  ];

  it("are replayed for every error of the pets operations but 429 and 500", () => {
    const errors = examples.filter(
      ({ operationId, status = 0 }) => PETS_OPERATIONS.includes(operationId) && status >= 400,
    );
    const replayable = errors.filter(({ status }) => status !== 429 && status !== 500);
    expect(REPLAYS.map(([operationId, status]) => `${operationId} ${status}`).sort()).toEqual(
      replayable.map(({ operationId, status }) => `${operationId} ${status}`).sort(),
    );
  });

  it.each(REPLAYS)("%s %i is what the service answers", async (operationId, status, send) => {
    const response = await send(await createApiKey());
    expect(response.status).toBe(status);
    const documented = examples.find((example) => example.operationId === operationId && example.status === status);
    expect(await response.json()).toEqual(documented?.example);
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
    expect(openapi.info.description).toContain("<{absolute url}>");
    expect(html).toContain("&lt;{absolute url}&gt;");
    expect(html).not.toContain("<{absolute url}>");
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

describe("the conformance check of test/helpers.ts", () => {
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
    Link: '</v1/pets>; rel="successor-version"',
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
