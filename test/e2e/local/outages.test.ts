import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createKey } from "../../../scripts/keys";
import { checkNoLocalTraces, type DevServer, startDevServer } from "../../../scripts/lib/dev-server";
import { openStores } from "../../../scripts/lib/stores";
import { api, expectError, expectUnavailable, type Pet, petName } from "../helpers/client";
import { createThroughD1Outage } from "../helpers/client-through-outage";
import { type Create, sendCreate, storedByName } from "../helpers/creates";
import { faultCauses, LOCKED_D1, printedDevKey } from "../helpers/dev-output";
import { lockStore } from "../helpers/lock-store";

// Outages made from outside a scratch `npm run dev` of this file's own, while requests run:
// - another process locks a store's SQLite files (D1, KV, a rate limiter). The service
//   answers 503 with Retry-After (or, for a limiter, fails open), never 500 and never 401
//   for a valid key, and recovers by itself once the lock is gone (the client waits);
// - then the server (wrangler and workerd) is killed with SIGKILL in the middle of a
//   stream of creates, and restarted on the same state.

const persistTo = mkdtempSync(path.join(tmpdir(), "petstore-outages-"));
const servers: DevServer[] = [];
const start = async () => {
  const started = await startDevServer({ name: "the outage tests", command: "npm run dev", persistTo });
  servers.push(started);
  checkNoLocalTraces(persistTo); // npm run dev keeps wrangler's local trace store off (scripts/dev.ts)
  // wrangler holds no Worker but the API to the API's types (src/auth-server/entry.js).
  if (started.output().includes("might be out of date")) {
    throw new Error(`npm run dev warned of stale types:\n${started.output()}`);
  }
  // Its hint for more keys writes them into the state it serves, not the default one.
  if (!started.output().includes(`key:create -- <label> --persist-to ${persistTo})`)) {
    throw new Error(`npm run dev's hint for more keys does not name --persist-to ${persistTo}:\n${started.output()}`);
  }
  return started;
};
let server: DevServer;
let key: string;
let freshKey: string;
let known: Pet;
const on = (path: string, init: Parameters<typeof api>[1] = {}) => api(path, { origin: server.origin, key, ...init });

beforeAll(async () => {
  server = await start();
  key = printedDevKey(server);
  const stores = await openStores({ remote: false, persistTo });
  try {
    freshKey = await createKey("never used before the outage", { remote: false, persistTo }, stores);
  } finally {
    await stores.close();
  }
  // Every store has its files once used; the pet is then in the isolate's memory.
  const created = await on("/v1/pets", { method: "POST", json: { name: petName("faults"), categoryId: 1 } });
  known = (await created.json()) as Pet;
  expect((await on(`/v1/pets/${known.id}`)).status).toBe(200);
});
afterAll(async () => {
  for (const started of servers) await started.stop();
  rmSync(persistTo, { recursive: true, force: true });
});

const namedCount = async (name: string) =>
  ((await (await on("/v1/pets?limit=100&status=pending")).json()) as Pet[]).filter((pet) => pet.name === name).length;

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
    const causes = faultCauses(server, "D1");
    expect(causes.length).toBeGreaterThan(0);
    for (const cause of causes) expect(cause).toMatch(LOCKED_D1);
  });

  it("lets the client's createPet wait as Retry-After says, and create the pet once", () =>
    createThroughD1Outage(server, key));
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

/** The warn lines (src/lib/faults.ts) of RATE_LIMITER faults that the server has printed. */
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
    await vi.waitFor(() => expect(limiterFaults()).toBeGreaterThanOrEqual(faultsBefore + 2), { timeout: 600_000 });
    expect((await on("/v1/pets?limit=1")).status).toBe(200);
  });
});

// A crash in the middle of writes: a stream of creates, half with an Idempotency-Key, and
// the server killed once 60 are acknowledged. Restarted on the same state, it serves with
// the key it printed the first time, every pet acknowledged with 201 is stored exactly
// once, and retrying every unanswered keyed request creates none twice.
const CREATES = 160;
const AT_ONCE = 8;
const KILL_AFTER = 60;

it("loses and doubles nothing it acknowledged when the server is killed with SIGKILL mid-stream", async () => {
  const first = server;
  const run = crypto.randomUUID().slice(0, 8);
  const creates: Create[] = Array.from({ length: CREATES }, (_, index) => ({
    name: `crash ${run} ${index}`,
    ...(index % 2 === 0 && { idempotencyKey: `crash-${run}-${index}` }),
  }));
  const acknowledged = new Map<string, Pet>();
  const unanswered: Create[] = [];
  // The kill takes the whole server down at once: a create is answered 201 or not at all.
  const otherAnswers: string[] = [];
  let killed: Promise<void> | undefined;
  let next = 0;
  const client = async () => {
    for (let create = creates[next++]; create; create = creates[next++]) {
      const response = await sendCreate(first.origin, key, create).catch(() => undefined);
      if (response && response.status !== 201) {
        otherAnswers.push(`${create.name}: ${response.status}`);
        continue;
      }
      // A connection cut before the answer, or in the middle of its body: no acknowledgement.
      const pet = (await response?.json().catch(() => undefined)) as Pet | undefined;
      if (!pet) {
        unanswered.push(create);
        continue;
      }
      acknowledged.set(create.name, pet);
      if (acknowledged.size === KILL_AFTER) killed = first.kill();
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, client));
  await killed;
  expect(otherAnswers).toEqual([]);
  expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(unanswered.length).toBeGreaterThan(0);

  const second = await start();
  expect(printedDevKey(second), "the development key, kept across the restart").toBe(key);
  const stored = await storedByName(second.origin, key);
  for (const [name, pet] of acknowledged) expect(stored.get(name), name).toEqual([pet]);
  // A request that got no answer may or may not have committed: never twice.
  for (const { name } of unanswered) expect(stored.get(name)?.length ?? 0, name).toBeLessThanOrEqual(1);

  const keyed = unanswered.filter(({ idempotencyKey }) => idempotencyKey);
  for (const create of keyed) expect((await sendCreate(second.origin, key, create)).status).toBe(201);
  const afterRetries = await storedByName(second.origin, key);
  for (const { name } of keyed) expect(afterRetries.get(name), name).toHaveLength(1);
});
