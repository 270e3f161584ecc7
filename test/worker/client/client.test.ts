import { hc } from "hono/client";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { AppType } from "../../../src/app";
import type { Pet } from "../../../src/schemas";
import { BASE_URL, createApiKey, send } from "../../helpers/index";

// The typed client that the README shows, run against the Worker through the same
// send() as every other test, so its answers are checked against openapi.json too.
// The expectTypeOf lines are checked by `tsc` (npm run typecheck), not at run time.

let key: string;
beforeAll(async () => {
  key = await createApiKey("typed client");
});

const client = hc<AppType>(BASE_URL, {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => send(new Request(input, init)),
  headers: () => ({ Authorization: `Bearer ${key}` }),
});

describe("the typed client hc<AppType>", () => {
  let created: Pet;

  it("creates a pet (createPet)", async () => {
    const response = await client.v1.pets.$post({ json: { name: "Typed Rex", categoryId: 4 } });
    expect(response.status).toBe(201);
    if (response.status !== 201) return;
    created = await response.json();
    expectTypeOf(created).toEqualTypeOf<Pet>();
    expect(created).toMatchObject({ name: "Typed Rex", categoryId: 4, status: "available" });
  });

  it("lists pets, and follows the next link (listPets)", async () => {
    await client.v1.pets.$post({ json: { name: "Typed Tom", categoryId: 4, status: "pending" } });
    const first = await client.v1.pets.$get({ query: { limit: "1" } });
    expect(first.status).toBe(200);
    const page = await first.json();
    expectTypeOf(page).toEqualTypeOf<Pet[]>();
    expect(page).toEqual([created]);
    // The next link is relative: resolved against the request's URL, as RFC 8288 says.
    const next = new URL(
      /<([^>]+)>/.exec(first.headers.get("Link") ?? "")?.[1] ?? "",
      first.url || "http://petstore.test",
    );
    const cursor = next.searchParams.get("cursor") ?? "";
    const second = await client.v1.pets.$get({ query: { limit: "1", cursor } });
    expect((await second.json()).map((pet) => pet.name)).toEqual(["Typed Tom"]);
    // Typed Tom is pending and Typed Rex available: the filter keeps the one and leaves the other.
    const pending = await client.v1.pets.$get({ query: { status: "pending" } });
    expect((await pending.json()).map((pet) => pet.name)).toEqual(["Typed Tom"]);
  });

  it("gets a pet by id (getPet)", async () => {
    const response = await client.v1.pets[":petId"].$get({ param: { petId: String(created.id) } });
    expect(response.status).toBe(200);
    if (response.status !== 200) return;
    const pet = await response.json();
    expectTypeOf(pet).toEqualTypeOf<Pet>();
    expect(pet).toEqual(created);
  });

  it("builds the URLs of the interface", () => {
    expect(client.v1.pets.$url().pathname).toBe("/v1/pets");
    expect(client.v1.pets[":petId"].$url({ param: { petId: "7" } }).pathname).toBe("/v1/pets/7");
  });

  it("knows the request types", () => {
    type ListQuery = Parameters<typeof client.v1.pets.$get>[0]["query"];
    expectTypeOf<ListQuery>().toEqualTypeOf<{
      limit?: string | undefined;
      status?: "available" | "pending" | "sold" | undefined;
      cursor?: string | undefined;
    }>();
    type NewPetBody = Parameters<typeof client.v1.pets.$post>[0]["json"];
    expectTypeOf<NewPetBody>().toEqualTypeOf<{
      name: string;
      categoryId: number;
      status?: "available" | "pending" | "sold" | undefined;
    }>();
    // getPet takes no query parameter: the client may send none (`query` is only ever empty).
    expectTypeOf(client.v1.pets[":petId"].$get)
      .parameter(0)
      .toEqualTypeOf<{ query?: Record<string, never> | undefined } & { param: { petId: string } }>();
  });
});
