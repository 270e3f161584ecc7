import { beforeAll, describe, expect, it } from "vitest";
import { call, createApiKey, expectError } from "../../helpers/index";

let key: string;
let readKey: string;
let writeKey: string;
beforeAll(async () => {
  key = await createApiKey();
  readKey = await createApiKey("reads", { scopes: ["read"] });
  writeKey = await createApiKey("writes", { scopes: ["write"] });
});

describe("routing", () => {
  it.each(["/v1/", "/v2/pets", "/v1/pet", "/v1/pets/1/owner", "/v1/store/orders", "/store/orders"])(
    "answers 404 Error for the unknown path %s",
    async (path) => {
      await expectError(await call(path, { key }), 404, "not_found");
    },
  );

  it.each([
    ["/v1/pets/", "a key", 404],
    ["/v1/pets/1/owner", "a key", 404],
    // The key is checked before routing under /v1/pets: no answer tells what exists there.
    ["/v1/pets/", "no key", 401],
    ["/v1/pets/1/owner", "no key", 401],
    ["/v1/pets", "no key", 401],
    ["/v1/pets/1", "no key", 401],
  ] as const)("answers %s with %s with Cache-Control: no-store", async (path, credentials, status) => {
    const response = await call(path, { key: credentials === "a key" ? key : null });
    expect(response.status).toBe(status);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("echoes no more than a short, marked part of a long unknown path", async () => {
    const error = await expectError(await call(`/v1/${"x".repeat(16 * 1024)}`, { key }), 404, "not_found");
    expect(error.message).toBe(`No route matches GET /v1/${"x".repeat(60)}….`);
  });

  it.each([
    ["PUT", "/v1/pets", "GET, HEAD, POST"],
    ["DELETE", "/v1/pets", "GET, HEAD, POST"],
    ["PATCH", "/v1/pets", "GET, HEAD, POST"],
    ["OPTIONS", "/v1/pets", "GET, HEAD, POST"],
    ["POST", "/v1/pets/1", "GET, HEAD"],
    ["PUT", "/v1/pets/1", "GET, HEAD"],
    ["DELETE", "/v1/pets/1", "GET, HEAD"],
  ])("answers 405 with Allow for %s %s, to a key of any scopes", async (method, path, allow) => {
    for (const anyKey of [key, readKey, writeKey]) {
      const response = await call(path, { method, key: anyKey });
      await expectError(response, 405, "method_not_allowed");
      expect(response.headers.get("Allow")).toBe(allow);
    }
  });

  it("still refuses a routed method to a key without its scope", async () => {
    await expectError(await call("/v1/pets", { method: "POST", key: readKey, json: {} }), 403, "forbidden");
    await expectError(await call("/v1/pets", { key: writeKey }), 403, "forbidden");
  });

  it("answers HEAD like GET, without a body", async () => {
    const response = await call("/v1/pets", { method: "HEAD", key });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });
});
