import { beforeAll, describe, expect, it } from "vitest";
import { api, createPet, expectError, type Pet, petName } from "../helpers/client";

// The three operations over HTTP, as the README shows them with curl.

describe("POST /v1/pets", () => {
  it("answers 201 with the stored pet and its Location", async () => {
    const name = petName("createPet");
    const response = await api("/v1/pets", { method: "POST", json: { name, categoryId: 7, status: "pending" } });
    expect(response.status).toBe(201);
    const pet = (await response.json()) as Pet;
    expect(pet).toEqual({ id: expect.any(Number), name, categoryId: 7, status: "pending" });
    expect(response.headers.get("Location")).toBe(`pets/${pet.id}`);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("GET /v1/pets", () => {
  it("answers a JSON array of pets, filtered by status", async () => {
    // At least one sold pet, so that the filter has something to show.
    await createPet("listPets by status", { status: "sold" });
    const response = await api("/v1/pets?status=sold&limit=5");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const pets = (await response.json()) as Pet[];
    expect(Array.isArray(pets)).toBe(true);
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.length).toBeLessThanOrEqual(5);
    for (const pet of pets) expect(pet).toMatchObject({ id: expect.any(Number), status: "sold" });
  });
});

describe("GET /v1/pets/{petId} (deprecated)", () => {
  const DEPRECATION = {
    deprecation: "@1795219200",
    sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
    link: '<../pets>; rel="successor-version"',
  };
  const expectDeprecated = (response: Response) => {
    expect(Object.fromEntries(Object.keys(DEPRECATION).map((name) => [name, response.headers.get(name)]))).toEqual(
      DEPRECATION,
    );
  };
  let pet: Pet;
  beforeAll(async () => {
    pet = await createPet("getPet", { categoryId: 3, status: "sold" });
  });

  it("answers 200 with the pet and the deprecation headers", async () => {
    const response = await api(`/v1/pets/${pet.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(pet);
    expectDeprecated(response);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("answers 404 with an Error body for an unknown id, deprecated too", async () => {
    const response = await api(`/v1/pets/${Number.MAX_SAFE_INTEGER}`);
    await expectError(response, 404, "not_found");
    expectDeprecated(response);
  });

  it("sends the deprecation headers with 400 and 401 too", async () => {
    const invalid = await api("/v1/pets/abc");
    await expectError(invalid, 400, "invalid_request");
    expectDeprecated(invalid);
    const unauthorized = await api(`/v1/pets/${pet.id}`, { key: null });
    await expectError(unauthorized, 401, "unauthorized");
    expectDeprecated(unauthorized);
  });
});
