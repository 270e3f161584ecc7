import { describe, expect, it } from "vitest";
import type { Pet } from "../../../src/schemas";
import { call, countPets, createApiKey, nextLink } from "../../helpers/index";

describe("concurrent requests", () => {
  it("give 200 parallel creates 200 distinct ids, each of which reads back", async () => {
    // Two clients of 100 requests each, to stay under the test rate limit per key.
    const keys = [await createApiKey("parallel creates 1"), await createApiKey("parallel creates 2")];
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        call("/v1/pets", {
          method: "POST",
          key: keys[index % 2],
          json: { name: `Parallel ${index}`, categoryId: 1 + (index % 7) },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(200).fill(201));
    const pets = (await Promise.all(responses.map((response) => response.json()))) as Pet[];
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(200);
    // Read back through the listing (two pages of 100), staying under the test rate limit.
    const key = keys[0] ?? "";
    const first = await call("/v1/pets?limit=100", { key });
    const second = await call(nextLink(first) ?? "", { key });
    const listed = [...((await first.json()) as Pet[]), ...((await second.json()) as Pet[])];
    expect(listed).toEqual([...pets].sort((a, b) => a.id - b.id));
  });

  it("create exactly one pet from 50 parallel retries of one Idempotency-Key", async () => {
    const key = await createApiKey("parallel retries");
    const before = await countPets();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        call("/v1/pets", {
          method: "POST",
          key,
          json: { name: "Retried", categoryId: 3 },
          headers: { "Idempotency-Key": "one-pet-please" },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(201));
    const bodies = await Promise.all(responses.map((response) => response.json()));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(responses.filter((response) => !response.headers.has("Idempotent-Replayed"))).toHaveLength(1);
    expect(await countPets()).toBe(before + 1);
  });
});
