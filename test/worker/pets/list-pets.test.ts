import { beforeAll, describe, expect, it } from "vitest";
import type { Pet } from "../../../src/schemas";
import { call, createApiKey, createPet, expectError } from "../../helpers/index";

let key: string;
let created: Pet[];

beforeAll(async () => {
  key = await createApiKey();
  created = [];
  // 25 pets: more than the default page, with every status represented.
  for (let index = 0; index < 25; index++) {
    const status = (["available", "pending", "sold"] as const)[index % 3];
    created.push(await createPet(key, { name: `Pet ${index}`, categoryId: 1 + (index % 4), status }));
  }
});

const list = async (query = "") => {
  const response = await call(`/v1/pets${query}`, { key });
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return (await response.json()) as Pet[];
};

describe("GET /v1/pets", () => {
  it("answers the first 20 pets by ascending id by default", async () => {
    const pets = await list();
    expect(pets).toEqual(created.slice(0, 20));
  });

  it("answers at most `limit` pets", async () => {
    expect(await list("?limit=1")).toEqual(created.slice(0, 1));
    expect(await list("?limit=7")).toEqual(created.slice(0, 7));
    expect(await list("?limit=100")).toEqual(created);
  });

  it.each(["available", "pending", "sold"] as const)("keeps only pets whose status is %s", async (status) => {
    const pets = await list(`?status=${status}`);
    expect(pets).toEqual(created.filter((pet) => pet.status === status));
  });

  it("combines the status filter with the limit", async () => {
    const pets = await list("?status=sold&limit=3");
    expect(pets).toEqual(created.filter((pet) => pet.status === "sold").slice(0, 3));
  });

  it("answers each pet with exactly the Pet fields", async () => {
    const [pet] = await list("?limit=1");
    expect(Object.keys(pet ?? {}).sort()).toEqual(["categoryId", "id", "name", "status"]);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=-3", "limit"],
    ["limit=abc", "limit"],
    ["limit=2.5", "limit"],
    ["limit=", "limit"],
    ["limit=1e1", "limit"],
    ["limit=%2010", "limit"],
    ["limit=1&limit=2", "limit"],
    ["status=adopted", "status"],
    ["status=", "status"],
    ["status=Available", "status"],
    ["status=sold&status=pending", "status"],
    ["colour=brown", "colour"],
  ])("answers 400 naming the parameter for ?%s", async (query, parameter) => {
    const response = await call(`/v1/pets?${query}`, { key });
    const body = await expectError(response, 400, "invalid_request");
    expect(body.message).toContain(`'${parameter}'`);
  });

  it.each(["limit=1&limit=2", "status=sold&status=pending", "cursor=a&cursor=b"])(
    "says a parameter must be given once for ?%s",
    async (query) => {
      const body = await expectError(await call(`/v1/pets?${query}`, { key }), 400, "invalid_request");
      expect(body.message).toBe(`Query parameter '${query.split("=")[0]}' must be given once.`);
    },
  );
});
