import { beforeAll, describe, expect, it } from "vitest";
import type { Pet } from "../../../src/schemas";
import { call, countPets, createApiKey, expectError } from "../../helpers/index";
import { petsDatabase } from "../../helpers/segments";

let key: string;
beforeAll(async () => {
  key = await createApiKey();
});

const post = (json: unknown, headers?: HeadersInit) => call("/v1/pets", { method: "POST", key, json, headers });

// What createPet stores and the fields it refuses; the bytes of its body (malformed JSON,
// charsets, encodings, sizes) and a query string: test/worker/pets/create-pet-body.test.ts.

describe("POST /v1/pets", () => {
  it("answers 201 with the stored pet and its Location", async () => {
    const response = await post({ name: "Rex", categoryId: 3, status: "pending" });
    expect(response.status).toBe(201);
    const pet = (await response.json()) as Pet;
    expect(pet).toEqual({ id: expect.any(Number), name: "Rex", categoryId: 3, status: "pending" });
    expect(response.headers.get("Location")).toBe(`pets/${pet.id}`);
    const stored = await petsDatabase().prepare("select * from pets where id = ?").bind(pet.id).first();
    expect(stored).toEqual({ id: pet.id, name: "Rex", category_id: 3, status: "pending" });
    const fetched = await call(`/v1/pets/${pet.id}`, { key });
    expect(await fetched.json()).toEqual(pet);
  });

  it("stores status 'available' when none is sent", async () => {
    const response = await post({ name: "Tom", categoryId: 1 });
    expect(await response.json()).toMatchObject({ status: "available" });
  });

  it("accepts the largest category id JavaScript holds exactly, and long and unusual names", async () => {
    const accepted = [
      { name: "x".repeat(255), categoryId: Number.MAX_SAFE_INTEGER },
      { name: "🐕".repeat(255), categoryId: 1 },
      { name: "  Rex  ", categoryId: 2 },
      { name: "Ünïcødé ñame — 犬", categoryId: 2, status: "sold" },
      // Every script, right-to-left ones included, combining marks, joined emoji.
      { name: "שלום", categoryId: 2 },
      { name: "مرحبا بالعالم", categoryId: 2 },
      { name: "e\u0301le\u0300ve", categoryId: 2 },
      { name: "👨\u200D👩\u200D👧", categoryId: 2 },
      { name: "강아지", categoryId: 2 },
    ];
    for (const pet of accepted) {
      const response = await post(pet);
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject(pet);
    }
  });

  it("assigns growing ids that are never reused", async () => {
    const first = (await (await post({ name: "A", categoryId: 1 })).json()) as Pet;
    await petsDatabase().prepare("delete from pets where id = ?").bind(first.id).run();
    const second = (await (await post({ name: "B", categoryId: 1 })).json()) as Pet;
    expect(second.id).toBeGreaterThan(first.id);
  });

  const invalidBodies: [string, unknown, string][] = [
    ["name is missing", { categoryId: 1 }, "'name' is required"],
    ["categoryId is missing", { name: "Rex" }, "'categoryId' is required"],
    ["name is empty", { name: "", categoryId: 1 }, "'name'"],
    ["name is blank", { name: "   ", categoryId: 1 }, "'name'"],
    ["name is too long", { name: "x".repeat(256), categoryId: 1 }, "'name'"],
    ["name is too long in code points", { name: "🐕".repeat(256), categoryId: 1 }, "'name'"],
    ["name holds a control character", { name: "Re\u0000x", categoryId: 1 }, "'name'"],
    ["name holds a lone surrogate", { name: "Rex\ud800", categoryId: 1 }, "'name'"],
    ["name is only zero-width spaces", { name: "\u200b\u200b", categoryId: 1 }, "visible"],
    ["name is only a word joiner and a space", { name: " \u2060", categoryId: 1 }, "visible"],
    ["name is only a Hangul filler", { name: "\u3164", categoryId: 1 }, "visible"],
    ["name is only a Hangul choseong filler", { name: "\u115f", categoryId: 1 }, "visible"],
    ["name is only a combining mark", { name: "\u0301", categoryId: 1 }, "visible"],
    ["name holds a right-to-left override", { name: "abc\u202Egpj.exe", categoryId: 1 }, "bidirectional"],
    ["name holds a bidi isolate", { name: "Rex\u2067x\u2069", categoryId: 1 }, "bidirectional"],
    ["name holds a line separator", { name: "Rex\u2028Tom", categoryId: 1 }, "'name'"],
    ["name is a number", { name: 42, categoryId: 1 }, "'name'"],
    ["name is null", { name: null, categoryId: 1 }, "'name'"],
    ["categoryId is a string", { name: "Rex", categoryId: "1" }, "'categoryId'"],
    ["categoryId is zero", { name: "Rex", categoryId: 0 }, "'categoryId'"],
    ["categoryId is negative", { name: "Rex", categoryId: -1 }, "'categoryId'"],
    ["categoryId is fractional", { name: "Rex", categoryId: 1.5 }, "'categoryId'"],
    ["categoryId is 2^53", { name: "Rex", categoryId: 2 ** 53 }, "'categoryId'"],
    ["categoryId is beyond int64", { name: "Rex", categoryId: 1e20 }, "'categoryId'"],
    ["status is unknown", { name: "Rex", categoryId: 1, status: "adopted" }, "'status'"],
    ["status is null", { name: "Rex", categoryId: 1, status: null }, "'status'"],
    ["id is sent", { id: 5, name: "Rex", categoryId: 1 }, "'id'"],
    ["an unknown property is sent", { name: "Rex", categoryId: 1, colour: "brown" }, "'colour'"],
    ["the body is an array", [{ name: "Rex", categoryId: 1 }], "JSON object"],
    ["the body is a string", "Rex", "JSON object"],
    ["the body is null", null, "JSON object"],
  ];

  it.each(invalidBodies)("answers 400 and stores nothing when %s", async (_, body, mentions) => {
    const before = await countPets();
    const response = await post(body);
    const error = await expectError(response, 400, "invalid_request");
    expect(error.message).toContain(mentions);
    expect(await countPets()).toBe(before);
  });

  it("refuses a category id that JSON would round, instead of storing another one", async () => {
    const response = await call("/v1/pets", {
      method: "POST",
      key,
      headers: { "Content-Type": "application/json" },
      body: '{"name":"Rex","categoryId":9007199254740993}',
    });
    await expectError(response, 400, "invalid_request");
  });

  it.each([
    ["1.0000000000000001", "1.0000000000000001"],
    ["9007199254740991.4", "9007199254740991.4"],
    ["1e-400", "1e-400"],
    ["2.99999999999999999", "2.99999999999999999"],
  ])("refuses the category id %s, which is not an integer but would be read as one", async (written, quoted) => {
    const before = await countPets();
    const response = await call("/v1/pets", {
      method: "POST",
      key,
      headers: { "Content-Type": "application/json" },
      body: `{"name":"Rounded","categoryId":${written}}`,
    });
    const error = await expectError(response, 400, "invalid_request");
    expect(error.message).toBe(
      `Body field 'categoryId' cannot hold ${quoted}, which is not an integer but would be read as one: send it without a fractional part.`,
    );
    expect(await countPets()).toBe(before);
  });

  it.each(["1.0", "1e0", "10e-1", "0.1e1", "1.000e+0"])(
    "accepts the category id %s, the integer 1 as written",
    async (written) => {
      const response = await call("/v1/pets", {
        method: "POST",
        key,
        headers: { "Content-Type": "application/json" },
        body: `{"name":"Exact","categoryId":${written}}`,
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ categoryId: 1 });
    },
  );

  it("names every invalid field at once", async () => {
    const error = await expectError(await post({ name: "", categoryId: "x", extra: 1 }), 400, "invalid_request");
    for (const field of ["'name'", "'categoryId'", "'extra'"]) expect(error.message).toContain(field);
  });
});
