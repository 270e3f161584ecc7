import { beforeAll, describe, expect, it, vi } from "vitest";
import { app } from "../../../src/app";
import { IMMUTABLE_PETS_CACHE } from "../../../src/core/cache";
import { cachedBytes } from "../../../src/lib/bounded-cache";
import type { Pet } from "../../../src/schemas";
import { call, createApiKey, createPet } from "../../helpers/index";
import { petsDatabase } from "../../helpers/segments";

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
    // IMMUTABLE_PETS_CACHE in src/core/cache.ts.
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
    const { results } = await petsDatabase().prepare("select id from pets order by id limit 3").all<{ id: number }>();
    expect(firstPage.map((pet) => pet.id)).toEqual(results.map((row) => row.id));
  });
});

/** The answer to a GET, and where its access log line says it came from. */
const read = async (path: string) => {
  const log = vi.spyOn(console, "log");
  try {
    const response = await call(path, { key });
    const [line] = log.mock.calls.map(([written]) => JSON.parse(String(written)) as { isolateCache?: string });
    return { response, from: line?.isolateCache };
  } finally {
    log.mockRestore();
  }
};

/** A pet stored without passing through this isolate, as another isolate's would be: nothing here caches it. */
const storedElsewhere = async (name: string) =>
  (await petsDatabase()
    .prepare("insert into pets (name, category_id, status) values (?, 1, 'available') returning id")
    .bind(name)
    .first<{ id: number }>()) as { id: number };

describe("what the isolate keeps", () => {
  it("answers a full page the second time from memory, the same, with the same next link", async () => {
    const first = await read("/v1/pets?limit=4");
    const again = await read("/v1/pets?limit=4");
    const third = await read("/v1/pets?limit=4");
    expect([first.from, again.from, third.from]).toEqual(["miss", "hit", "hit"]);
    // Byte for byte: the answers from memory are written from the page's kept text (src/lib/json-text.ts).
    const body = await first.response.text();
    expect((JSON.parse(body) as Pet[]).length).toBe(4);
    expect(await again.response.text()).toBe(body);
    expect(await third.response.text()).toBe(body);
    for (const { response } of [again, third]) {
      expect(response.headers.get("Content-Type")).toBe(first.response.headers.get("Content-Type"));
    }
    expect(first.response.headers.get("Link")).toMatch(/rel="next"/);
    expect(again.response.headers.get("Link")).toBe(first.response.headers.get("Link"));
  });

  it("reads a partial last page from D1 each time", async () => {
    const first = await read("/v1/pets?limit=100&status=sold");
    const again = await read("/v1/pets?limit=100&status=sold");
    expect([first.from, again.from]).toEqual(["miss", "miss"]);
  });

  it("reads a pet from D1 once, and from memory once it was read or listed on a full page", async () => {
    const alone = await storedElsewhere("Read alone");
    const [listed] = [await storedElsewhere("Listed"), await storedElsewhere("After the listed one")];
    const [fromD1, fromMemory] = [await read(`/v1/pets/${alone.id}`), await read(`/v1/pets/${alone.id}`)];
    expect([fromD1.from, fromMemory.from]).toEqual(["miss", "hit"]);
    const body = await fromD1.response.text();
    expect(JSON.parse(body)).toMatchObject({ id: alone.id, name: "Read alone" });
    expect(await fromMemory.response.text()).toBe(body);
    expect(fromMemory.response.headers.get("Content-Type")).toBe(fromD1.response.headers.get("Content-Type"));
    const { results } = await petsDatabase().prepare("select id from pets where id <= ?").bind(listed?.id).all();
    const page = await read(`/v1/pets?limit=${results.length}`);
    expect(((await page.response.json()) as Pet[]).at(-1)?.id).toBe(listed?.id);
    expect(page.from).toBe("miss");
    expect((await read(`/v1/pets/${listed?.id}`)).from).toBe("hit");
  });

  it("holds pets, full pages and cursors each in its own share of the memory budget", async () => {
    await list("?limit=2");
    const shares = cachedBytes();
    // The memory budget's shares (src/lib/bounded-cache.ts), written here rather than imported.
    const known = ["pets", "pages", "knownKeys", "keyHashes", "unknownKeys", "usageCounts", "lastUsedDays", "cursors"];
    expect(Object.keys(shares).filter((share) => !known.includes(share))).toEqual([]);
    for (const share of ["pets", "pages", "cursors"] as const) expect(shares[share]).toBeGreaterThan(0);
  });
});
