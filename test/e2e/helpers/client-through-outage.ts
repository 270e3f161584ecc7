import { expect } from "vitest";
import { createClient } from "../../../client/src/index";
import type { DevServer } from "../../../scripts/lib/dev-server";
import { checkedFetch, petName } from "./client";
import { lockStore } from "./lock-store";

/**
 * The client's createPet while D1 is locked (test/e2e/local/outages.test.ts): answered
 * 503, it waits as Retry-After says (the test's clock lifts the lock meanwhile), retries
 * with the same Idempotency-Key, and exactly one pet exists afterwards.
 */
export const createThroughD1Outage = async (server: DevServer, apiKey: string) => {
  const lock = await lockStore(server.persistTo, "d1");
  const attempts: { key: string | null; status: number }[] = [];
  const waits: number[] = [];
  const client = createClient({
    baseUrl: `${server.origin}/v1`,
    apiKey,
    fetch: async (input, init) => {
      const response = await checkedFetch(input, init);
      attempts.push({ key: new Headers(init.headers).get("Idempotency-Key"), status: response.status });
      return response;
    },
    sleep: async (ms) => {
      waits.push(ms);
      await lock.release();
    },
  });
  const name = petName("created by the client through a D1 outage");
  try {
    const pet = await client.createPet({ name, categoryId: 1, status: "sold" });
    expect(attempts.map(({ status }) => status)).toEqual([503, 201]);
    expect(new Set(attempts.map(({ key }) => key)).size).toBe(1);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(3_000);
    const stored = [];
    for await (const sold of client.listAllPets({ status: "sold", limit: 100 }))
      if (sold.name === name) stored.push(sold);
    expect(stored).toEqual([pet]);
  } finally {
    await lock.release();
  }
};
