import { beforeEach, describe, expect, it } from "vitest";
import type { PetsPage } from "../../../src/core/list-pets";
import type { OperationEnv } from "../../../src/core/operation";
import type { NewPet, Pet, PetStatus } from "../../../src/schemas";
import { DAY, type SegmentIsolate, startIsolate } from "../../helpers/segment-isolate";
import { closeSegment, freshSegments, petsPerSegment, segmentEnv } from "../../helpers/segments";

// The operations over three segments (src/db/segments.ts), each id range 2^40 wide: ids,
// the walk, getPet, creates and their Idempotency-Keys across a segment's closing.

const SPAN = 2 ** 40;
const HOUR = 60 * 60 * 1000;

type Isolate = { env: OperationEnv };
/**
 * A deployment that lists `count` segments. The Worker learns which one is open once per
 * isolate and list (src/core/open-segment.ts): `worker = await startIsolate()` starts another isolate.
 */
const isolate = (count: 1 | 2 | 3 = 3): Isolate => ({ env: segmentEnv(count) });

let worker: SegmentIsolate;
const contextOf = ({ env }: Isolate, now = DAY) => worker.contextOf(env, now);
const accepted: SegmentIsolate["accepted"] = (outcome) => worker.accepted(outcome);
const createPet: SegmentIsolate["createPet"] = { scope: "write", run: (...args) => worker.createPet.run(...args) };
const getPet: SegmentIsolate["getPet"] = { scope: "read", run: (...args) => worker.getPet.run(...args) };
const listPets: SegmentIsolate["listPets"] = { scope: "read", run: (...args) => worker.listPets.run(...args) };

const pet = (name: string, status: PetStatus = "available"): NewPet => ({ name, categoryId: 1, status });

const create = async (
  at: Isolate,
  newPet: NewPet,
  { idempotencyKey, now }: { idempotencyKey?: string; now?: number } = {},
) => {
  const context = contextOf(at, now);
  const created = accepted(await createPet.run(context, { pet: newPet, idempotencyKey }));
  return { ...created, roundTrips: context.db.usage.roundTrips };
};

/** Every page of a walk, with the round trips of each. */
const walk = async (at: Isolate, limit: number, status?: PetStatus) => {
  const pages: { pets: Pet[]; roundTrips: number }[] = [];
  let cursor: string | undefined;
  do {
    const context = contextOf(at);
    const page: PetsPage = accepted(await listPets.run(context, { limit, status, cursor }));
    pages.push({ pets: page.pets, roundTrips: context.db.usage.roundTrips });
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
};

/**
 * A deployment's life: the pets of `perSegment[0]` created while it had one segment, then
 * segment 1 listed and 0 closed, and so on. Answers the names in the order created.
 */
const history = async (perSegment: NewPet[][]) => {
  const created: Pet[] = [];
  for (const [position, pets] of perSegment.entries()) {
    if (position > 0) await closeSegment(position - 1, DAY);
    const at = isolate((position + 1) as 1 | 2 | 3);
    for (const newPet of pets) created.push((await create(at, newPet)).pet);
  }
  return created;
};

beforeEach(async () => {
  await freshSegments();
  worker = await startIsolate();
});

describe("ids across segments", () => {
  it("are each segment's own range, ascending, and within 2^53", async () => {
    const created = await history([[pet("zero")], [pet("one")], [pet("two")]]);
    expect(created.map(({ id }) => id)).toEqual([1, SPAN, 2 * SPAN]);
    expect(await petsPerSegment()).toEqual([1, 1, 1]);
  });

  it("stay in the segment before the last until it is closed", async () => {
    await history([[pet("zero")], [pet("still zero")]].slice(0, 1));
    // Segment 1 listed, segment 0 not closed yet: creates stay in 0.
    const at = isolate(2);
    expect((await create(at, pet("still zero"))).pet.id).toBe(2);
    expect(await petsPerSegment()).toEqual([2, 0, 0]);
  });
});

describe("a create that races a segment's closing", () => {
  it("is refused by the closed segment, retried once on the next, and stored once", async () => {
    const at = isolate(2);
    await create(at, pet("before")); // this isolate now knows segment 0 as open
    await closeSegment(0, DAY);
    const raced = await create(at, pet("raced"));
    expect(raced.pet.id).toBe(SPAN);
    expect(await petsPerSegment()).toEqual([1, 1, 0]);
    // Known from then on: the next create goes straight to segment 1.
    expect((await create(at, pet("after"))).roundTrips).toBe(1);
  });

  it("with an Idempotency-Key, is stored once too", async () => {
    const at = isolate(2);
    await create(at, pet("before"));
    await closeSegment(0, DAY);
    const raced = await create(at, pet("raced"), { idempotencyKey: "raced" });
    expect([raced.pet.id, raced.replayed]).toEqual([SPAN, false]);
    expect(await petsPerSegment()).toEqual([1, 1, 0]);
  });

  it("by a Worker that lists no later segment is 503, and stores nothing", async () => {
    const old = isolate(1);
    await create(old, pet("zero"));
    await closeSegment(0, DAY);
    const refused = await createPet.run(contextOf(old), { pet: pet("nowhere") });
    expect(refused).toMatchObject({ code: "unavailable", status: 503 });
    expect(await petsPerSegment()).toEqual([1, 0, 0]);
    // A Worker that lists segment 1 stores it there.
    expect((await create(isolate(2), pet("somewhere"))).pet.id).toBe(SPAN);
  });
});

describe("an Idempotency-Key across a segment's closing", () => {
  it("is answered with the same pet from the closed segment, and refused with another body", async () => {
    const first = await create(isolate(2), pet("once"), { idempotencyKey: "k-1" });
    await closeSegment(0, DAY);
    worker = await startIsolate(); // an isolate that learns of the closing from the segment's row
    const at = isolate(2);
    const replay = await create(at, pet("once"), { idempotencyKey: "k-1", now: DAY + 23 * HOUR });
    expect([replay.pet, replay.replayed]).toEqual([first.pet, true]);
    const other = await createPet.run(contextOf(at, DAY + 23 * HOUR), { pet: pet("twice"), idempotencyKey: "k-1" });
    expect(other).toMatchObject({ code: "idempotency_key_reused" });
    expect(await petsPerSegment()).toEqual([1, 0, 0]);
  });

  it("is answered from the closed segment by an isolate that learns of the closing from its refusal", async () => {
    const at = isolate(2);
    const first = await create(at, pet("once"), { idempotencyKey: "k-5" });
    await closeSegment(0, DAY);
    await create(at, pet("other")); // refused by segment 0, stored in 1
    const replay = await create(at, pet("once"), { idempotencyKey: "k-5", now: DAY + HOUR });
    expect([replay.pet, replay.replayed]).toEqual([first.pet, true]);
    expect(await petsPerSegment()).toEqual([1, 1, 0]);
  });

  it("creates anew once its 24 hours have passed, in the open segment", async () => {
    await create(isolate(2), pet("once"), { idempotencyKey: "k-2" });
    await closeSegment(0, DAY);
    const later = await create(isolate(2), pet("once"), { idempotencyKey: "k-2", now: DAY + 26 * HOUR });
    expect([later.pet.id, later.replayed]).toEqual([SPAN, false]);
    expect(await petsPerSegment()).toEqual([1, 1, 0]);
  });

  it("looks into a segment closed within its 24 hours, and not into one closed before", async () => {
    await closeSegment(0, DAY);
    const at = isolate(2);
    await create(at, pet("first"), { idempotencyKey: "k-3", now: DAY + HOUR });
    // The closed segment's record looked for, then the insert.
    expect((await create(at, pet("second"), { idempotencyKey: "k-4", now: DAY + HOUR })).roundTrips).toBe(2);
    expect((await create(at, pet("third"), { idempotencyKey: "k-6", now: DAY + 26 * HOUR })).roundTrips).toBe(1);
  });

  it("looks for 24 hours and five minutes after the closing (the closing machine's clock), and not a minute more", async () => {
    const MINUTE = 60 * 1000;
    await closeSegment(0, DAY);
    const at = isolate(2);
    await create(at, pet("first"), { idempotencyKey: "m-1", now: DAY + HOUR });
    const keyed = async (key: string, now: number) =>
      (await create(at, pet(key), { idempotencyKey: key, now })).roundTrips;
    expect(await keyed("m-2", DAY + 24 * HOUR + 4 * MINUTE)).toBe(2);
    expect(await keyed("m-3", DAY + 24 * HOUR + 6 * MINUTE)).toBe(1);
  });
});

describe("getPet across segments", () => {
  it("makes one query, to the segment its id names, and none for an id in no segment", async () => {
    const created = await history([[pet("zero")], [pet("one")], [pet("two")]]);
    worker = await startIsolate(); // an isolate that did not create them
    for (const { id } of created) {
      const context = contextOf(isolate());
      expect(accepted(await getPet.run(context, { petId: id })).pet.id).toBe(id);
      expect(context.db.usage.roundTrips).toBe(1);
    }
    const context = contextOf(isolate());
    expect(await getPet.run(context, { petId: 3 * SPAN })).toMatchObject({ status: 404 });
    expect(context.db.usage.roundTrips).toBe(0);
    // The last id a segment owns is looked for there.
    const edge = contextOf(isolate());
    expect(await getPet.run(edge, { petId: 3 * SPAN - 1 })).toMatchObject({ status: 404 });
    expect(edge.db.usage.roundTrips).toBe(1);
  });
});

describe("the walk across segments", () => {
  it("visits every pet once, by ascending id, with at most two queries a page", async () => {
    const perSegment = [3, 2, 4].map((count, position) =>
      Array.from({ length: count }, (_, index) => pet(`s${position}-${index}`, index % 2 ? "sold" : "available")),
    );
    const created = await history(perSegment);
    for (const limit of [1, 2, 3, 4, 9, 10]) {
      for (const status of [undefined, "available", "sold"] as const) {
        const pages = await walk(isolate(), limit, status);
        const expected = created.filter((one) => status === undefined || one.status === status);
        expect(pages.flatMap((page) => page.pets)).toEqual(expected);
        expect(Math.max(...pages.map((page) => page.roundTrips))).toBeLessThanOrEqual(2);
      }
    }
  });

  it("answers a short page that links on when two segments hold no match, and ends", async () => {
    await history([[pet("sold-0", "sold")], [pet("sold-1", "sold")], [pet("pending-2", "pending")]]);
    const pages = await walk(isolate(), 5, "pending");
    expect(pages.map((page) => page.pets.map((found) => found.name))).toEqual([[], ["pending-2"]]);
    expect(pages.map((page) => page.roundTrips)).toEqual([2, 1]);
  });

  it("ends in the segment before the last while that one is open, in one query, and does not go on", async () => {
    await history([[pet("a"), pet("b")]]);
    // A pet in segment 1 before segment 0 is closed can only be one a walk must not cross to:
    // segment 0 may still take pets that come before it.
    await segmentEnv(2)
      .PETS_1.prepare("insert into pets (name, category_id, status) values ('early', 1, 'available')")
      .run();
    const pages = await walk(isolate(2), 5);
    expect(pages.map((page) => page.pets.map((found) => found.name))).toEqual([["a", "b"]]);
    expect(pages.map((page) => page.roundTrips)).toEqual([1]);
    // Once segment 0 is closed, the walk goes on into segment 1.
    await closeSegment(0, DAY);
    worker = await startIsolate();
    const after = await walk(isolate(2), 5);
    expect(after.map((page) => page.pets.map((found) => found.name))).toEqual([["a", "b", "early"]]);
    expect(after.map((page) => page.roundTrips)).toEqual([2]);
  });

  it("refuses a cursor past every segment", async () => {
    await history([[pet("a")], [pet("b")], [pet("c")]]);
    const first = accepted(await listPets.run(contextOf(isolate()), { limit: 1, status: "available" }));
    const second = accepted(
      await listPets.run(contextOf(isolate()), { limit: 1, status: "available", cursor: first.nextCursor }),
    );
    // Its position is the first id of segment 2: no segment of a deployment that lists two.
    const refused = await listPets.run(contextOf(isolate(2)), {
      limit: 1,
      status: "available",
      cursor: second.nextCursor,
    });
    expect(refused).toMatchObject({ code: "invalid_request", status: 400 });
  });
});

describe("PET_SEGMENTS", () => {
  it("lists DB, PETS_1 ... in order, each bound, and 8,192 segments at most", async () => {
    const { segmentLayout } = await import("../../../src/db/segments");
    const names = (count: number) =>
      Array.from({ length: count }, (_, position) => (position ? `PETS_${position}` : "DB"));
    const bound = (count: number) => Object.fromEntries(names(count).map((name) => [name, segmentEnv(1).DB]));
    expect(segmentLayout({ ...bound(8192), PET_SEGMENTS: names(8192).join(" ") } as never).databases).toHaveLength(
      8192,
    );
    expect(() => segmentLayout({ ...bound(8193), PET_SEGMENTS: names(8193).join(" ") } as never)).toThrow(
      "PET_SEGMENTS lists 8193 segments, past the 8192 there are",
    );
    expect(() => segmentLayout({ DB: segmentEnv(1).DB, PET_SEGMENTS: "DB PETS_2" } as never)).toThrow("in order");
    expect(() => segmentLayout({ DB: segmentEnv(1).DB, PET_SEGMENTS: "DB PETS_1" } as never)).toThrow(
      "PET_SEGMENTS names PETS_1, which is not a D1 binding of this Worker",
    );
  });
});
