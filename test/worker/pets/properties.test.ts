import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type ErrorBody, PET_STATUSES, petSchema } from "../../../src/schemas";
import { call, createApiKey } from "../../helpers/index";
import { petsDatabase } from "../../helpers/segments";

// Each property gets a key of its own: a run is at most ~200 requests, under the test rate limit.
const RUNS = 100;
// One seed per run of the suite (vitest.config.ts draws it, or takes FC_SEED), named in the
// describe's title and in fast-check's report of a failure: FC_SEED=<seed> replays the run.
const { FC_SEED } = env as Cloudflare.Env & { FC_SEED: string };
const SEED = Number(FC_SEED);
const text = fc.string({ unit: "binary", maxLength: 300 });

/**
 * A response to anything must be a success or a well-formed client error, never a 5xx,
 * with a message of at most 1 KiB whatever the request held.
 */
const expectHandled = async (response: Response, allowed: number[]) => {
  expect(allowed).toContain(response.status);
  const body = await response.json();
  if (response.status >= 400) {
    expect(body).toEqual({ code: expect.any(String), message: expect.any(String), status: response.status });
    expect(new TextEncoder().encode((body as ErrorBody).message).length).toBeLessThanOrEqual(1024);
  }
  return body;
};

const nearlyValidPet = fc.record(
  {
    name: fc.oneof(text, fc.constant("Rex")),
    categoryId: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 53), fc.string()),
    status: fc.oneof(fc.constantFrom(...PET_STATUSES), text, fc.constant(null)),
    id: fc.integer(),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

describe(`under arbitrary input (seed ${SEED})`, () => {
  let key: () => Promise<string>;
  beforeAll(() => {
    key = () => createApiKey("properties");
  });

  it("POST /v1/pets answers any JSON value with 201 or 400", async () => {
    const apiKey = await key();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), nearlyValidPet), async (body) => {
        const response = await call("/v1/pets", { method: "POST", key: apiKey, json: body });
        const answer = await expectHandled(response, [201, 400]);
        if (response.status === 201) expect(petSchema.safeParse(answer).success).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("POST /v1/pets answers any text body with 201, 400 or 413", async () => {
    const apiKey = await key();
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom("application/json", "application/merge-patch+json"),
        async (body, type) => {
          const response = await call("/v1/pets", {
            method: "POST",
            key: apiKey,
            body,
            headers: { "Content-Type": type },
          });
          await expectHandled(response, [201, 400, 413]);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("GET /v1/pets answers any query string with 200 or 400", async () => {
    const apiKey = await key();
    const parameter = fc.constantFrom("limit", "status", "cursor", "x", "limit[]", "");
    const query = fc.array(fc.tuple(parameter, text), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const search = new URLSearchParams(
          pairs.map(([name, value]): [string, string] => [name, value.toWellFormed()]),
        );
        const response = await call(`/v1/pets?${search}`, { key: apiKey });
        await expectHandled(response, [200, 400]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("GET /v1/pets/{petId} answers any path segment with 200, 400 or 404", async () => {
    const apiKey = await key();
    const segment = fc.oneof(text, fc.integer().map(String), fc.bigInt().map(String), fc.double().map(String));
    await fc.assert(
      fc.asyncProperty(segment.filter(Boolean), async (petId) => {
        const response = await call(`/v1/pets/${encodeURIComponent(petId.toWellFormed())}`, { key: apiKey });
        await expectHandled(response, [200, 400, 404]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("answers any Authorization or Idempotency-Key header without a 5xx", async () => {
    const apiKey = await key();
    const headerValue = fc
      .string({ unit: "binary-ascii", maxLength: 300 })
      .map((value) => value.replace(/[\r\n\0]/g, ""));
    await fc.assert(
      fc.asyncProperty(headerValue, headerValue, async (authorization, idempotencyKey) => {
        const unauthenticated = await call("/v1/pets", { key: null, headers: { Authorization: authorization } });
        await expectHandled(unauthenticated, [401]);
        const response = await call("/v1/pets", {
          method: "POST",
          key: apiKey,
          json: { name: "Rex", categoryId: 1 },
          headers: { "Idempotency-Key": idempotencyKey },
        });
        await expectHandled(response, [201, 400]);
      }),
      { numRuns: RUNS / 2, seed: SEED },
    );
  });

  it("leaves only valid rows in the table", async () => {
    const { results } = await petsDatabase()
      .prepare("select id, name, category_id as categoryId, status from pets")
      .all();
    expect(results.length).toBeGreaterThan(0);
    for (const row of results) expect(petSchema.safeParse(row).success, JSON.stringify(row)).toBe(true);
  });
});
