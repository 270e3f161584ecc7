import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPet } from "../../../src/core/create-pet";
import { getPet } from "../../../src/core/get-pet";
import { listPets, type PetsPage } from "../../../src/core/list-pets";
import type { OperationContext } from "../../../src/core/operation";
import { Refusal } from "../../../src/core/refusal";
import { openSegmentSessions } from "../../../src/db/segment-sessions";
import type { Scope } from "../../../src/keys/api-key";
import type { NewPet, Pet } from "../../../src/schemas";
import { petsDatabase } from "../../helpers/segments";

// The operations called as any door calls them: a plain context (a D1 session, a caller, a
// clock handed in, the settings), no request, no Hono. What each door adds is only wording.

const DAY = Date.UTC(2027, 0, 1);

const contextOf = ({ scopes = ["read", "write"], now = DAY, brownouts = "" } = {}): OperationContext => {
  const execution = createExecutionContext();
  return {
    db: openSegmentSessions(env),
    caller: { label: "core", createdAt: "2027-01-01T00:00:00Z", hash: "core-caller", scopes: scopes as Scope[] },
    now,
    env: { ...env, CURSOR_SECRET_PREVIOUS: "", GET_PET_BROWNOUTS: brownouts },
    waitUntil: (work) => execution.waitUntil(work),
    requestId: "core-test",
  };
};

/** The operation's value; fails the test on a refusal. */
const accepted = <Value>(outcome: Value | Refusal): Value => {
  if (outcome instanceof Refusal) throw new Error(`refused: ${outcome.code}: ${outcome.message}`);
  return outcome;
};
/** The operation's refusal; fails the test on a value. */
const refusalIn = (outcome: unknown): Refusal => {
  expect(outcome).toBeInstanceOf(Refusal);
  return outcome as Refusal;
};

const create = async (pet: NewPet, idempotencyKey?: string) =>
  accepted(await createPet.run(contextOf(), { pet, idempotencyKey }));
const countPets = async () =>
  (await petsDatabase().prepare("SELECT count(*) AS n FROM pets").first<{ n: number }>())?.n ?? Number.NaN;

describe("createPet, called directly", () => {
  it("stores the pet and answers it with its id", async () => {
    const { pet, replayed } = await create({ name: "Rex", categoryId: 1, status: "available" });
    expect(pet).toEqual({ id: expect.any(Number), name: "Rex", categoryId: 1, status: "available" });
    expect(replayed).toBe(false);
    const stored = await petsDatabase().prepare("SELECT name FROM pets WHERE id = ?").bind(pet.id).first();
    expect(stored).toEqual({ name: "Rex" });
  });

  it("answers the first pet again for a repeated Idempotency-Key, and refuses it with another body", async () => {
    const first = await create({ name: "Once", categoryId: 2, status: "available" }, "core-key-1");
    const before = await countPets();
    const again = await create({ name: "Once", categoryId: 2, status: "available" }, "core-key-1");
    expect(again).toEqual({ pet: first.pet, replayed: true });
    const other = refusalIn(
      await createPet.run(contextOf(), {
        pet: { name: "Twice", categoryId: 2, status: "available" },
        idempotencyKey: "core-key-1",
      }),
    );
    expect([other.code, other.status]).toEqual(["idempotency_key_reused", 422]);
    expect(await countPets()).toBe(before);
  });

  it("refuses a caller without the write scope, and stores nothing", async () => {
    const before = await countPets();
    const refused = refusalIn(
      await createPet.run(contextOf({ scopes: ["read"] }), { pet: { name: "No", categoryId: 1, status: "available" } }),
    );
    expect([refused.code, refused.status]).toEqual(["forbidden", 403]);
    expect(await countPets()).toBe(before);
    // The same caller with the scope is let through.
    expect(
      accepted(
        await createPet.run(contextOf({ scopes: ["write"] }), {
          pet: { name: "Yes", categoryId: 1, status: "available" },
        }),
      ).pet.name,
    ).toBe("Yes");
  });
});

describe("listPets, called directly", () => {
  it("walks every pet once, by ascending id, page by page with the cursor it hands out", async () => {
    const made: Pet[] = [];
    for (const name of ["A", "B", "C"]) made.push((await create({ name, categoryId: 3, status: "pending" })).pet);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page: PetsPage = accepted(await listPets.run(contextOf(), { limit: 2, status: "pending", cursor }));
      expect(page.pets.length).toBeLessThanOrEqual(2);
      seen.push(...page.pets.map((pet) => pet.id));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
    for (const pet of made) expect(seen).toContain(pet.id);
  });

  it("refuses a cursor it did not sign, and one of another filter", async () => {
    const altered = refusalIn(await listPets.run(contextOf(), { limit: 1, cursor: "MS4x.AAAA" }));
    expect([altered.code, altered.status]).toEqual(["invalid_request", 400]);
    await create({ name: "D", categoryId: 3, status: "sold" });
    await create({ name: "E", categoryId: 3, status: "sold" });
    const { nextCursor } = accepted(await listPets.run(contextOf(), { limit: 1, status: "sold" }));
    expect(nextCursor).toBeDefined();
    const crossed = refusalIn(await listPets.run(contextOf(), { limit: 1, status: "pending", cursor: nextCursor }));
    expect(crossed.code).toBe("invalid_request");
  });

  it("refuses a caller without the read scope", async () => {
    const refused = refusalIn(await listPets.run(contextOf({ scopes: ["write"] }), { limit: 1 }));
    expect([refused.code, refused.status]).toEqual(["forbidden", 403]);
  });
});

describe("getPet, called directly", () => {
  it("finds a stored pet, and refuses an id that no pet has", async () => {
    const { pet } = await create({ name: "Found", categoryId: 4, status: "available" });
    expect(accepted(await getPet.run(contextOf(), { petId: pet.id })).pet).toEqual(pet);
    const missing = refusalIn(await getPet.run(contextOf(), { petId: 2 ** 52 }));
    expect([missing.code, missing.status]).toEqual(["not_found", 404]);
  });

  it("is gone from its sunset on, 5 December 2030 00:00 UTC, by the clock it is handed", async () => {
    const { pet } = await create({ name: "Sunset", categoryId: 4, status: "available" });
    const sunset = Date.UTC(2030, 11, 5);
    expect(accepted(await getPet.run(contextOf({ now: sunset - 1 }), { petId: pet.id })).pet).toEqual(pet);
    const gone = refusalIn(await getPet.run(contextOf({ now: sunset }), { petId: pet.id }));
    expect([gone.code, gone.status]).toEqual(["gone", 410]);
  });

  it("is gone during a brownout, and answers on either side of it", async () => {
    const { pet } = await create({ name: "Brownout", categoryId: 4, status: "available" });
    const brownouts = "2028-06-02T14:00:00Z/PT1H";
    const start = Date.UTC(2028, 5, 2, 14);
    for (const now of [start - 1, start + 3_600_000]) {
      expect(accepted(await getPet.run(contextOf({ now, brownouts }), { petId: pet.id })).pet).toEqual(pet);
    }
    for (const now of [start, start + 3_599_999]) {
      expect(refusalIn(await getPet.run(contextOf({ now, brownouts }), { petId: pet.id })).code).toBe("gone");
    }
  });
});
