import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { DEPRECATIONS } from "../../../src/deprecation/deprecated-operation";
import { examples, label, operations, PETS_OPERATIONS } from "../../helpers/document-examples";
import { call, createApiKey, faultLogLines } from "../../helpers/index";
import { d1Error, failing } from "../../helpers/wrap-bindings";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/api.md: a body of at most 64 KiB */
const MAX_BODY_BYTES = 64 * 1024;

const GET_PET_SUNSET = new Date(DEPRECATIONS.getPet.sunset);

describe("the examples of openapi.json", () => {
  it("give every parameter, request body and response body of the pets operations one", () => {
    expect(operations.filter(({ operationId }) => PETS_OPERATIONS.includes(operationId))).toHaveLength(3);
    const missing = examples.filter(
      ({ operationId, example }) => PETS_OPERATIONS.includes(operationId) && example === undefined,
    );
    expect(missing.map(label)).toEqual([]);
  });

  it("are valid by the zod schemas that the routes validate with, each error's code agreeing with its status", () => {
    const given = examples.filter(({ example }) => example !== undefined);
    expect(given.length).toBeGreaterThan(20);
    expect(given.filter(({ valid }) => !valid()).map(label)).toEqual([]);
  });

  // Each error that one request provokes, replayed: the example is the service's own
  // answer. 429 and 500 take a flood or a bug; the test above checks their examples.
  const post = (key: string, init: { json?: unknown; body?: string; headers?: Record<string, string> }) =>
    call("/v1/pets", { method: "POST", key, ...init });
  /** The answer while D1 is overloaded (test/worker/faults/faults-d1.test.ts injects the other faults), its log line kept quiet. */
  const whileD1Overloaded = async (send: (bindings: Cloudflare.Env) => Promise<Response>) => {
    // The pets' queries only: getPet's usage is written later, after this answer.
    const overloaded = failing(env, { binding: "DB", sql: /"pets"/, error: d1Error("D1 DB is overloaded.") });
    let response: Response | undefined;
    await faultLogLines(async () => {
      response = await send(overloaded.env);
    });
    return response as Response;
  };
  const asJson = { "Content-Type": "application/json" };
  const REPLAYS: [string, number, (key: string) => Promise<Response>][] = [
    ["listPets", 400, (key) => call("/v1/pets?limit=0", { key })],
    ["listPets", 503, (key) => whileD1Overloaded((bindings) => call("/v1/pets?status=sold", { key, bindings }))],
    ["getPet", 503, (key) => whileD1Overloaded((bindings) => call("/v1/pets/987654", { key, bindings }))],
    [
      "createPet",
      503,
      (key) =>
        whileD1Overloaded((bindings) =>
          call("/v1/pets", {
            method: "POST",
            key,
            json: { name: "Rex", categoryId: 1 },
            headers: { "Idempotency-Key": "overloaded" },
            bindings,
          }),
        ),
    ],
    ["listPets", 401, () => call("/v1/pets")],
    ["listPets", 403, async () => call("/v1/pets", { key: await createApiKey("write only", { scopes: ["write"] }) })],
    [
      "createPet",
      403,
      async () => post(await createApiKey("read only", { scopes: ["read"] }), { json: { name: "Rex", categoryId: 1 } }),
    ],
    ["getPet", 403, async () => call("/v1/pets/1", { key: await createApiKey("write only", { scopes: ["write"] }) })],
    ["listPets", 405, (key) => call("/v1/pets", { method: "DELETE", key })],
    ["createPet", 400, (key) => post(key, { json: { name: "Rex" } })],
    ["createPet", 401, () => call("/v1/pets", { method: "POST", json: { name: "Rex", categoryId: 1 } })],
    ["createPet", 405, (key) => call("/v1/pets", { method: "DELETE", key })],
    ["createPet", 413, (key) => post(key, { body: " ".repeat(MAX_BODY_BYTES + 1), headers: asJson })],
    ["createPet", 415, (key) => post(key, { body: "{}", headers: { "Content-Type": "text/plain" } })],
    [
      "createPet",
      422,
      async (key) => {
        const headers = { "Idempotency-Key": "examples" };
        expect((await post(key, { headers, json: { name: "Rex", categoryId: 1 } })).status).toBe(201);
        return post(key, { headers, json: { name: "Rex", categoryId: 2 } });
      },
    ],
    ["getPet", 400, (key) => call("/v1/pets/0", { key })],
    ["getPet", 401, () => call("/v1/pets/1")],
    ["getPet", 404, (key) => call("/v1/pets/999999", { key })],
    [
      "getPet",
      410,
      async (key) => {
        vi.useFakeTimers({ toFake: ["Date"] });
        vi.setSystemTime(GET_PET_SUNSET);
        try {
          return await call("/v1/pets/1", { key });
        } finally {
          vi.useRealTimers();
        }
      },
    ],
    ["getPet", 405, (key) => call("/v1/pets/1", { method: "DELETE", key })],
  ];

  it("are replayed for every error of the pets operations but 429 and 500", () => {
    const errors = examples.filter(
      ({ operationId, status = 0 }) => PETS_OPERATIONS.includes(operationId) && status >= 400,
    );
    const replayable = errors.filter(({ status }) => status !== 429 && status !== 500);
    expect(REPLAYS.map(([operationId, status]) => `${operationId} ${status}`).sort()).toEqual(
      replayable.map(({ operationId, status }) => `${operationId} ${status}`).sort(),
    );
  });

  it.each(REPLAYS)("%s %i is what the service answers", async (operationId, status, send) => {
    const response = await send(await createApiKey());
    expect(response.status).toBe(status);
    const documented = examples.find((example) => example.operationId === operationId && example.status === status);
    expect(await response.json()).toEqual(documented?.example);
  });
});
