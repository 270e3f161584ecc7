import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DevServer } from "../../../scripts/dev-server";
import { api, expectError, type Pet, petName } from "../client";
import { issueKey, startScratchServer } from "../global-setup";
import { lockStore } from "../lock-store";

// Outages of D1, KV and a rate limiter, made from outside: another process holds an
// exclusive lock on the store's SQLite files under a scratch `npm run dev` of this
// file's own, while requests run. The service answers 503 with Retry-After (or, for a
// limiter, fails open), never 500 and never 401 for a valid key, and recovers by itself
// once the lock is gone.

let server: DevServer;
let key: string;
let freshKey: string;
let known: Pet;
const on = (path: string, init: Parameters<typeof api>[1] = {}) => api(path, { origin: server.origin, key, ...init });

beforeAll(async () => {
  ({ server, apiKey: key } = await startScratchServer("faults"));
  freshKey = await issueKey("never used before the outage", server.persistTo);
  // Every store has its files once used; the pet is then in the isolate's memory.
  const created = await on("/v1/pets", { method: "POST", json: { name: petName("faults"), categoryId: 1 } });
  known = (await created.json()) as Pet;
  expect((await on(`/v1/pets/${known.id}`)).status).toBe(200);
}, 120_000);
afterAll(() => server?.stop());

const expectUnavailable = async (response: Response) => {
  const error = await expectError(response, 503, "unavailable");
  expect(response.headers.get("Retry-After")).toBe("3");
  return error;
};

const namedCount = async (name: string) => {
  const pets = (await (await on("/v1/pets?limit=100&status=pending")).json()) as Pet[];
  return pets.filter((pet) => pet.name === name).length;
};

describe("while D1's database file is locked", () => {
  it("answers what needs D1 with 503, serves what the isolate holds, and recovers by itself", async () => {
    const name = petName("during the D1 outage");
    const keyed = {
      method: "POST",
      json: { name, categoryId: 1, status: "pending" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    };
    const lock = await lockStore(server.persistTo, "d1");
    try {
      await expectUnavailable(await on("/v1/pets?status=sold"));
      await expectUnavailable(await on("/v1/pets/987654"));
      await expectUnavailable(await on("/v1/pets", keyed));
      const plain = await expectUnavailable(await on("/v1/pets", { method: "POST", json: { name, categoryId: 1 } }));
      expect(plain.message).toMatch(/Idempotency-Key/);
      expect(await (await on(`/v1/pets/${known.id}`)).json()).toEqual(known);
    } finally {
      await lock.release();
    }
    expect((await on("/v1/pets?status=sold")).status).toBe(200);
    await expectError(await on("/v1/pets/987654"), 404, "not_found");
    // The client's retry of the keyed create: created now, once.
    expect((await on("/v1/pets", keyed)).status).toBe(201);
    expect((await on("/v1/pets", keyed)).headers.get("Idempotent-Replayed")).toBe("true");
    expect(await namedCount(name)).toBe(1);
  });
});

describe("while KV's files are locked", () => {
  it("keeps a key verified lately working, answers 503 (not 401) for any other, and recovers by itself", async () => {
    const lock = await lockStore(server.persistTo, "kv");
    try {
      expect((await on(`/v1/pets/${known.id}`)).status).toBe(200);
      await expectUnavailable(await on(`/v1/pets/${known.id}`, { key: freshKey }));
      await expectUnavailable(await on(`/v1/pets/${known.id}`, { key: `ps_test_${"A".repeat(43)}` }));
    } finally {
      await lock.release();
    }
    // Nothing was remembered of the failed lookup: the key works at once.
    expect((await on(`/v1/pets/${known.id}`, { key: freshKey })).status).toBe(200);
  });
});

/** The warn lines (src/faults.ts) of RATE_LIMITER faults that the server has printed. */
const limiterFaults = () =>
  server.output().match(/"dependency":"RATE_LIMITER","cause":[^\n]*"outcome":"failed open: not counted"/g)?.length ?? 0;

describe("while the rate limiters' store is locked", () => {
  it("fails open: requests are served, and the fault is logged", async () => {
    const faultsBefore = limiterFaults();
    const lock = await lockStore(server.persistTo, "ratelimit");
    try {
      expect((await on(`/v1/pets/${known.id}`)).status).toBe(200);
      expect((await on("/v1/pets?limit=1")).status).toBe(200);
    } finally {
      await lock.release();
    }
    // The lock did fail the limiter: both requests were served uncounted. wrangler relays
    // the Worker's log lines a moment after the answers.
    await vi.waitFor(() => expect(limiterFaults()).toBeGreaterThanOrEqual(faultsBefore + 2), { timeout: 20_000 });
    expect((await on("/v1/pets?limit=1")).status).toBe(200);
  });
});
