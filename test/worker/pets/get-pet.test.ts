import { beforeAll, describe, expect, it } from "vitest";
import type { Pet } from "../../../src/schemas";
import { call, createApiKey, createPet, expectError } from "../../helpers/index";

let key: string;
let pet: Pet;
beforeAll(async () => {
  key = await createApiKey();
  pet = await createPet(key, { name: "Rex", categoryId: 7, status: "sold" });
});

const expectDeprecationHeaders = (response: Response) => {
  const deprecation = response.headers.get("Deprecation");
  expect(deprecation).toMatch(/^@\d+$/);
  const deprecatedAt = Number(deprecation?.slice(1)) * 1000;
  const sunset = response.headers.get("Sunset");
  expect(sunset).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
  expect(deprecatedAt).toBeLessThanOrEqual(Date.parse(sunset ?? ""));
  expect(response.headers.get("Link")).toBe('<../pets>; rel="successor-version"');
};

describe("GET /v1/pets/{petId} (deprecated)", () => {
  it("answers 200 with the pet", async () => {
    const response = await call(`/v1/pets/${pet.id}`, { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(pet);
    expectDeprecationHeaders(response);
  });

  it("answers 404 for a pet that does not exist", async () => {
    const response = await call(`/v1/pets/${pet.id + 1000}`, { key });
    const error = await expectError(response, 404, "not_found");
    expect(error.message).toContain(String(pet.id + 1000));
    expectDeprecationHeaders(response);
  });

  it.each(["0", "-1", "abc", "1.5", "1e3", "9007199254740992", "99999999999999999999", "%20"])(
    "answers 400 naming petId for /v1/pets/%s",
    async (petId) => {
      const response = await call(`/v1/pets/${petId}`, { key });
      const error = await expectError(response, 400, "invalid_request");
      expect(error.message).toContain("'petId'");
      expectDeprecationHeaders(response);
    },
  );

  it("refuses a query parameter, since getPet reads none", async () => {
    const response = await call(`/v1/pets/${pet.id}?fields=name`, { key });
    const error = await expectError(response, 400, "invalid_request");
    expect(error.message).toBe("Unknown query parameter 'fields'.");
    expectDeprecationHeaders(response);
  });

  it("carries the deprecation headers on a 401 too", async () => {
    const response = await call(`/v1/pets/${pet.id}`, { key: null });
    await expectError(response, 401, "unauthorized");
    expectDeprecationHeaders(response);
  });
});
