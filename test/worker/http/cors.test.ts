import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../../../src/keys/api-key";
import { type CallOptions, call, createApiKey, expectError, faultLogLines } from "../../helpers/index";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { countRoundTrips, failing, type StorageCall, wrapBindings } from "../../helpers/wrap-bindings";

// CORS as a browser on another origin meets it. Every answer goes through call(), whose
// conformance check leaves out only the preflights' (not operations of the document).

const APP = "https://app.example";
const EXPOSED =
  "Link,Location,x-d1-bookmark,X-Request-Id,Retry-After,Idempotent-Replayed,Deprecation,Sunset,Api-Key-Expiration,RateLimit-Policy";

let key: string;
beforeAll(async () => {
  key = await createApiKey("browser");
});

/** The Worker under `allowedOrigins` (the var ALLOWED_ORIGINS), on the real bindings. */
const fetchAs = (path: string, init: CallOptions, allowedOrigins = "*", bindings: Cloudflare.Env = env) =>
  call(path, { ...init, bindings: { ...bindings, ALLOWED_ORIGINS: allowedOrigins } });

const preflight = (method: string, requestHeaders: string, origin = APP) => ({
  method: "OPTIONS",
  headers: {
    Origin: origin,
    "Access-Control-Request-Method": method,
    "Access-Control-Request-Headers": requestHeaders,
  },
});

describe("a preflight", () => {
  it.each([
    ["/v1/pets", "POST", "GET,HEAD,POST"],
    ["/v1/pets", "GET", "GET,HEAD,POST"],
    ["/v1/pets/1", "GET", "GET,HEAD"],
  ])("of %s for %s is answered 204 before authentication, with no storage work", async (path, method, allowed) => {
    const counted = countRoundTrips(env);
    const response = await fetchAs(
      path,
      preflight(method, "authorization,content-type,idempotency-key,x-d1-bookmark,x-request-id"),
      "*",
      counted.env,
    );
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Methods")).toBe(allowed);
    expect(response.headers.get("Access-Control-Allow-Headers")).toBe(
      "Authorization,Content-Type,Idempotency-Key,x-d1-bookmark,X-Request-Id",
    );
    expect(response.headers.get("Access-Control-Max-Age")).toBe("7200");
    expect(counted.counts).toEqual({ d1: 0, kv: 0 });
  });

  it("reaches no binding at all: neither the rate limiters nor KV nor D1", async () => {
    const calls: StorageCall[] = [];
    const watched = wrapBindings(env, (storageCall) => {
      calls.push(storageCall);
      return undefined;
    });
    const response = await fetchAs("/v1/pets", preflight("POST", "authorization,content-type"), "*", watched);
    expect(response.status).toBe(204);
    expect(calls).toEqual([]);
  });

  it("of the document allows If-None-Match, for any origin", async () => {
    const response = await fetchAs("/v1/openapi.json", preflight("GET", "if-none-match"), "");
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Headers")).toBe("If-None-Match");
  });

  it.each(["/v1/pets/", "/v1/pets/1/2", "/v1/unknown"])(
    "of the unknown path %s is answered 204 too, so that the page can read the 404 that follows",
    async (path) => {
      const response = await fetchAs(path, preflight("GET", "authorization"), APP);
      expect(response.status).toBe(204);
      expect(response.headers.get("Access-Control-Allow-Origin")).toBe(APP);
      expect(response.headers.get("Access-Control-Allow-Methods")).toBe("GET,HEAD,POST");
    },
  );

  it("from an origin that is not allowed gets no Access-Control-Allow-Origin, so the browser stops there", async () => {
    const response = await fetchAs("/v1/pets", preflight("GET", "authorization", "https://evil.example"), APP);
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("is told apart from a plain OPTIONS, which gets the 405 with Allow of any other method the path lacks", async () => {
    const response = await fetchAs("/v1/pets", {
      method: "OPTIONS",
      headers: { Origin: APP, Authorization: `Bearer ${key}` },
    });
    await expectError(response, 405, "method_not_allowed");
    expect(response.headers.get("Allow")).toBe("GET, HEAD, POST");
  });

  it("is answered 204 without Allow on /v1/openapi.json, whose CORS answers every origin", async () => {
    const response = await fetchAs(
      "/v1/openapi.json",
      {
        method: "OPTIONS",
        headers: { Origin: APP },
        outsideContract: "the document's CORS answers any OPTIONS as a browser's, which OpenAPI does not describe",
      },
      "",
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("Allow")).toBeNull();
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });
});

describe("answers to an allowed origin", () => {
  const cases: [string, string, RequestInit, number][] = [
    ["a page of pets", "/v1/pets?limit=1", {}, 200],
    ["a created pet", "/v1/pets", { method: "POST", body: '{"name":"Rex","categoryId":1}' }, 201],
    ["a 400", "/v1/pets?limit=0", {}, 400],
    ["a 404", "/v1/pets/999999", {}, 404],
    ["the 404 of an unknown path under /v1/pets/", "/v1/pets/1/2", {}, 404],
    ["the 404 of /v1/pets/", "/v1/pets/", {}, 404],
    ["the 404 of an unknown path under /v1", "/v1/unknown", {}, 404],
  ];

  it.each(cases)("carry the origin, Vary: Origin and the exposed headers on %s", async (_, path, init, status) => {
    const headers = { Origin: APP, Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const response = await fetchAs(path, { ...init, headers }, `https://other.example, ${APP}`);
    expect(response.status).toBe(status);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe(APP);
    expect(response.headers.get("Vary")).toContain("Origin");
    expect(response.headers.get("Access-Control-Expose-Headers")).toBe(EXPOSED);
  });

  it("carry them on a 401 too, so that a page can read why", async () => {
    const response = await fetchAs("/v1/pets", { headers: { Origin: APP } }, APP);
    await expectError(response, 401, "unauthorized");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe(APP);
  });

  it("carry them on a 429, so that a page can read when to come back", async () => {
    const refused = await inOneLimiterWindow(async (run) => {
      const headers = { Origin: APP, "CF-Connecting-IP": `2001:db8:c025:${run}::1` };
      // AUTH_FAILURE_LIMITER: 60 well-formed unknown keys per address and minute, the 61st refused.
      for (let guess = 0; guess < 60; guess++) {
        const guessed = await fetchAs(
          "/v1/pets",
          { headers: { ...headers, Authorization: `Bearer ${generateApiKey("development")}` } },
          APP,
        );
        await guessed.arrayBuffer();
      }
      return fetchAs(
        "/v1/pets",
        { headers: { ...headers, Authorization: `Bearer ${generateApiKey("development")}` } },
        APP,
      );
    });
    await expectError(refused, 429, "rate_limited");
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBe(APP);
    expect(refused.headers.get("Access-Control-Expose-Headers")).toBe(EXPOSED);
  });

  it("carry them on a 503 and a 500, so that a page can read those too", async () => {
    const fresh = await createApiKey("cors during a fault");
    const kvDown = failing(env, { binding: "API_KEYS", error: new Error("internal error; reference = cors") });
    const dbBroken = failing(env, { binding: "DB", error: new Error("no such table: pets") });
    const headers = { Origin: APP, Authorization: `Bearer ${fresh}` };
    await faultLogLines(async () => {
      const unavailable = await fetchAs("/v1/pets", { headers }, APP, kvDown.env);
      await expectError(unavailable, 503, "unavailable");
      expect(unavailable.headers.get("Access-Control-Allow-Origin")).toBe(APP);
      const broken = await fetchAs("/v1/pets?limit=3", { headers }, APP, dbBroken.env);
      await expectError(broken, 500, "internal_error");
      expect(broken.headers.get("Access-Control-Allow-Origin")).toBe(APP);
      expect(broken.headers.get("Access-Control-Expose-Headers")).toBe(EXPOSED);
    });
  });

  it("are not shared with an origin that is not listed, nor with any when none is", async () => {
    const headers = { Origin: "https://evil.example", Authorization: `Bearer ${key}` };
    expect((await fetchAs("/v1/pets", { headers }, APP)).headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(
      (await fetchAs("/v1/pets", { headers: { ...headers, Origin: APP } }, "")).headers.get(
        "Access-Control-Allow-Origin",
      ),
    ).toBeNull();
  });
});

describe("GET /v1/openapi.json", () => {
  it("answers every origin, whatever ALLOWED_ORIGINS says: it is public", async () => {
    const response = await fetchAs("/v1/openapi.json", { headers: { Origin: "https://editor.example" } }, "");
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Expose-Headers")).toBe("ETag");
  });
});
