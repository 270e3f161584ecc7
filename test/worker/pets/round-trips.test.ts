import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Pet } from "../../../src/schemas";
import { call, createApiKey, createPet, nextLink } from "../../helpers/index";
import { FIRST_PAGE_QUERIES, petsDatabase } from "../../helpers/segments";
import { countRoundTrips } from "../../helpers/wrap-bindings";

// Storage round trips per request on a warm isolate (the key already looked up;
// test/worker/keys/auth-cache.test.ts shows it is looked up once), counted on the real
// bindings: deterministic, unlike timings.

let key: string;
let pets: Pet[];
beforeAll(async () => {
  key = await createApiKey("round trips");
  pets = [];
  for (let index = 0; index < 25; index++) {
    pets.push(await createPet(key, { name: `Pet ${index}`, categoryId: 1, status: index < 3 ? "pending" : "sold" }));
  }
  // With segments, an isolate reads once which closed ones may hold a young Idempotency-Key (src/core/open-segment.ts).
  await call("/v1/pets", {
    key,
    ...post({ name: "Warm", categoryId: 1, status: "sold" }, { "Idempotency-Key": "warm" }),
  });
});

/**
 * One request through the Worker's fetch handler, with the D1 and KV round trips of its
 * answer: counted when the answer is ready, before any write the Worker defers until
 * after it (the usage of a deprecated operation, test/worker/deprecation/deprecation.test.ts).
 */
const roundTrips = async (path: string, init: RequestInit = {}) => {
  const counter = countRoundTrips(env);
  let counts = { ...counter.counts };
  const response = await call(path, {
    ...init,
    key,
    bindings: counter.env,
    onAnswer: () => {
      counts = { ...counter.counts };
    },
  });
  await response.arrayBuffer();
  return { status: response.status, ...counts };
};

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  body: JSON.stringify(body),
  headers: { "Content-Type": "application/json", ...headers },
});

describe("storage round trips on a warm isolate", () => {
  it("serves a full page with no D1 query once it has been read", async () => {
    expect(await roundTrips("/v1/pets?limit=10")).toEqual({ status: 200, d1: FIRST_PAGE_QUERIES, kv: 0 });
    expect(await roundTrips("/v1/pets?limit=10")).toEqual({ status: 200, d1: 0, kv: 0 });
  });

  it("serves a full page reached through a cursor with no D1 query once it has been read", async () => {
    const next = nextLink(await call("/v1/pets?limit=5", { key })) ?? "";
    expect(await roundTrips(next)).toEqual({ status: 200, d1: 1, kv: 0 });
    expect(await roundTrips(next)).toEqual({ status: 200, d1: 0, kv: 0 });
  });

  it("always queries D1, once, for a partial page", async () => {
    for (let repeat = 0; repeat < 3; repeat++) {
      expect(await roundTrips("/v1/pets?status=pending")).toEqual({ status: 200, d1: FIRST_PAGE_QUERIES, kv: 0 });
    }
  });

  it("serves a pet with no D1 query once it is known, and reads an unknown one once", async () => {
    const created = pets[0] as Pet;
    expect(await roundTrips(`/v1/pets/${created.id}`)).toEqual({ status: 200, d1: 0, kv: 0 });
    const { meta } = await petsDatabase()
      .prepare("insert into pets (name, category_id, status) values ('Direct', 1, 'sold')")
      .run();
    const direct = meta.last_row_id;
    expect(await roundTrips(`/v1/pets/${direct}`)).toEqual({ status: 200, d1: 1, kv: 0 });
    expect(await roundTrips(`/v1/pets/${direct}`)).toEqual({ status: 200, d1: 0, kv: 0 });
    expect(await roundTrips("/v1/pets/999999")).toEqual({ status: 404, d1: 1, kv: 0 });
  });

  it("creates a pet in one D1 round trip, with or without an Idempotency-Key", async () => {
    expect(await roundTrips("/v1/pets", post({ name: "One", categoryId: 1 }))).toEqual({ status: 201, d1: 1, kv: 0 });
    const keyed = post({ name: "Two", categoryId: 1 }, { "Idempotency-Key": "one-trip" });
    expect(await roundTrips("/v1/pets", keyed)).toEqual({ status: 201, d1: 1, kv: 0 });
    // A replay: the failed batch, then the read of the recorded pet.
    expect(await roundTrips("/v1/pets", keyed)).toEqual({ status: 201, d1: 2, kv: 0 });
  });

  it("refuses invalid requests with no storage round trip at all", async () => {
    expect(await roundTrips("/v1/pets?limit=0")).toEqual({ status: 400, d1: 0, kv: 0 });
    expect(await roundTrips("/v1/pets", post({ name: "" }))).toEqual({ status: 400, d1: 0, kv: 0 });
  });
});
