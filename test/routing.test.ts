import { beforeAll, describe, expect, it } from "vitest";
import { call, createApiKey, expectError } from "./helpers";

let key: string;
beforeAll(async () => {
  key = await createApiKey();
});

describe("routing", () => {
  it.each(["/", "/v1", "/v1/", "/v2/pets", "/v1/pet", "/v1/pets/1/owner", "/v1/store/orders", "/store/orders"])(
    "answers 404 Error for the unknown path %s",
    async (path) => {
      await expectError(await call(path, { key }), 404, "not_found");
    },
  );

  it.each([
    ["PUT", "/v1/pets", "GET, HEAD, POST"],
    ["DELETE", "/v1/pets", "GET, HEAD, POST"],
    ["PATCH", "/v1/pets", "GET, HEAD, POST"],
    ["OPTIONS", "/v1/pets", "GET, HEAD, POST"],
    ["POST", "/v1/pets/1", "GET, HEAD"],
    ["PUT", "/v1/pets/1", "GET, HEAD"],
    ["DELETE", "/v1/pets/1", "GET, HEAD"],
  ])("answers 405 with Allow for %s %s", async (method, path, allow) => {
    const response = await call(path, { method, key });
    await expectError(response, 405, "method_not_allowed");
    expect(response.headers.get("Allow")).toBe(allow);
  });

  it("answers HEAD like GET, without a body", async () => {
    const response = await call("/v1/pets", { method: "HEAD", key });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });
});
