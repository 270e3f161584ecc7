import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../../src/app";
import { IMMUTABLE_PETS_CACHE } from "../../../src/pets/cache";
import type { Pet } from "../../../src/schemas";
import { call, createApiKey, createPet } from "../../helpers/index";

let key: string;
beforeAll(async () => {
  key = await createApiKey("cache");
  for (let index = 0; index < 6; index++) await createPet(key, { name: `Pet ${index}`, categoryId: 1 });
});

const list = async (query: string) => (await (await call(`/v1/pets${query}`, { key })).json()) as Pet[];

describe("the immutable-pets cache", () => {
  it("is on exactly while no route can change or delete a pet", () => {
    const petRoutes = app.routes.filter(({ path, method }) => path.startsWith("/v1/pets") && method !== "ALL");
    const routesThatChangePets = petRoutes.filter(
      ({ method, path }) => !(method === "GET" || (method === "POST" && path === "/v1/pets")),
    );
    // If this fails, a route now changes pets (or none does, and the cache is off): revisit
    // IMMUTABLE_PETS_CACHE in src/pets/cache.ts.
    expect(petRoutes.length).toBeGreaterThan(0);
    expect(IMMUTABLE_PETS_CACHE, JSON.stringify(routesThatChangePets)).toBe(routesThatChangePets.length === 0);
  });

  it("lists a pet created a moment ago, since a partial page always goes to D1", async () => {
    const before = await list("?status=pending");
    const pending = await createPet(key, { name: "Fresh", categoryId: 2, status: "pending" });
    expect(await list("?status=pending")).toEqual([...before, pending]);
  });

  it("grows the last page once it is no longer last, and keeps full pages as they were", async () => {
    const firstPage = await list("?limit=3");
    const lastPageBefore = await list(`?limit=100`);
    const created = await createPet(key, { name: "Newest", categoryId: 3 });
    expect(await list("?limit=3")).toEqual(firstPage);
    expect(await list("?limit=100")).toEqual([...lastPageBefore, created]);
    const { results } = await env.DB.prepare("select id from pets order by id limit 3").all<{ id: number }>();
    expect(firstPage.map((pet) => pet.id)).toEqual(results.map((row) => row.id));
  });
});
