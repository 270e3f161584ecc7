import { describe, expect, it } from "vitest";
import { api, expectError } from "../helpers/client";

// What the README says every response, or every answer about pets, carries.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Sample = [string, () => Promise<Response>];
const UNDER_PETS: Sample[] = [
  ["a page of pets", () => api("/v1/pets?limit=1")],
  ["a 401", () => api("/v1/pets", { key: null })],
  ["a 400", () => api("/v1/pets?limit=0")],
  ["a 405", () => api("/v1/pets", { method: "DELETE" })],
  ["an unknown path under /v1/pets", () => api("/v1/pets/1/owner")],
  ["an unknown path under /v1/pets, without a key", () => api("/v1/pets/", { key: null })],
];
const ELSEWHERE: Sample[] = [
  ["an unknown path", () => api("/v1/nothing-here")],
  ["the OpenAPI document", () => api("/v1/openapi.json", { key: null })],
  ["the reference page", () => api("/v1/docs", { key: null })],
];

describe("on every response", () => {
  it.each([...UNDER_PETS, ...ELSEWHERE])("X-Request-Id and X-Content-Type-Options: nosniff on %s", async (_, send) => {
    const response = await send();
    await response.arrayBuffer();
    expect(response.headers.get("X-Request-Id")).toBeTruthy();
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("echoes a client's plain X-Request-Id, and replaces any other with a UUID", async () => {
    const plain = "smoke-test.request:id=1+2";
    const echoed = await api("/v1/pets?limit=1", { headers: { "X-Request-Id": plain } });
    expect(echoed.headers.get("X-Request-Id")).toBe(plain);
    const replaced = await api("/v1/pets?limit=1", { headers: { "X-Request-Id": "not plain/at all" } });
    expect(replaced.headers.get("X-Request-Id")).toMatch(UUID);
  });
});

describe("answers under /v1/pets", () => {
  it.each(UNDER_PETS)("Cache-Control: no-store on %s", async (_, send) => {
    const response = await send();
    await response.arrayBuffer();
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("errors", () => {
  it("an unknown path is 404 with an Error body", async () => {
    await expectError(await api("/v1/nothing-here"), 404, "not_found");
  });

  it("DELETE /v1/pets is 405 with Allow", async () => {
    const response = await api("/v1/pets", { method: "DELETE" });
    await expectError(response, 405, "method_not_allowed");
    const allowed = response.headers.get("Allow")?.split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["GET", "POST"]));
    expect(allowed).not.toContain("DELETE");
  });
});
