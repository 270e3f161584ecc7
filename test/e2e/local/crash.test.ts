import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../../scripts/dev-server";
import { api, type Pet, walkPages } from "../client";
import { printedDevKey } from "../global-setup";

// A crash in the middle of writes: a stream of creates, half with an Idempotency-Key, and
// `npm run dev` (wrangler and workerd) killed with SIGKILL once 60 are acknowledged.
// Restarted on the same state, it serves with the key it printed the first time, every pet
// acknowledged with 201 is stored exactly once, and retrying every unanswered keyed request
// creates none twice.

const CREATES = 160;
const AT_ONCE = 8;
const KILL_AFTER = 60;

const persistTo = mkdtempSync(path.join(tmpdir(), "petstore-crash-"));
const servers: DevServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(persistTo, { recursive: true, force: true });
});

const start = async () => {
  const server = await startDevServer({ name: "the crash test", command: "npm run dev", persistTo });
  servers.push(server);
  return server;
};

type Create = { name: string; idempotencyKey?: string };
const send = (origin: string, key: string, { name, idempotencyKey }: Create) =>
  api("/v1/pets", {
    origin,
    key,
    method: "POST",
    json: { name, categoryId: 1 },
    headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {},
  });

/** Every stored pet, by name, read through the listing's next links. */
const storedByName = async (origin: string, key: string) => {
  const byName = new Map<string, Pet[]>();
  for (const pet of (await walkPages(api, "/v1/pets?limit=100", { origin, key })).flat()) {
    byName.set(pet.name, [...(byName.get(pet.name) ?? []), pet]);
  }
  return byName;
};

it("loses and doubles nothing it acknowledged when the server is killed with SIGKILL mid-stream", async () => {
  const first = await start();
  const key = printedDevKey(first);
  const run = crypto.randomUUID().slice(0, 8);
  const creates: Create[] = Array.from({ length: CREATES }, (_, index) => ({
    name: `crash ${run} ${index}`,
    ...(index % 2 === 0 && { idempotencyKey: `crash-${run}-${index}` }),
  }));
  const acknowledged = new Map<string, Pet>();
  const unanswered: Create[] = [];
  let killed: Promise<void> | undefined;
  let next = 0;
  const client = async () => {
    for (let create = creates[next++]; create; create = creates[next++]) {
      try {
        const response = await send(first.origin, key, create);
        if (response.status !== 201) throw new Error(`answered ${response.status}`);
        acknowledged.set(create.name, (await response.json()) as Pet);
        if (acknowledged.size === KILL_AFTER) killed = first.kill();
      } catch {
        unanswered.push(create);
      }
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, client));
  await killed;
  expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(unanswered.length).toBeGreaterThan(0);

  const second = await start();
  expect(printedDevKey(second), "the development key, kept across the restart").toBe(key);
  const stored = await storedByName(second.origin, key);
  for (const [name, pet] of acknowledged) expect(stored.get(name), name).toEqual([pet]);
  // A request that got no answer may or may not have committed: never twice.
  for (const { name } of unanswered) expect(stored.get(name)?.length ?? 0, name).toBeLessThanOrEqual(1);

  const keyed = unanswered.filter(({ idempotencyKey }) => idempotencyKey);
  for (const create of keyed) expect((await send(second.origin, key, create)).status).toBe(201);
  const afterRetries = await storedByName(second.origin, key);
  for (const { name } of keyed) expect(afterRetries.get(name), name).toHaveLength(1);
}, 180_000);
