import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PET_STATUSES, type Pet, type PetStatus } from "../../../src/schemas";
import { type SegmentIsolate, startIsolate } from "../../helpers/segment-isolate";
import { closeSegment, freshSegments, segmentEnv } from "../../helpers/segments";

// Walks under segments opening and closing between their pages, by fast-check: whatever the
// order of creates, of segments listed and closed (as `npm run segment:open` lists one, then
// closes the one before it), and of pages with their own limits and status filters, a walk
// visits each pet once, by ascending id; every pet that existed when it began, and every one
// created before its last page, is among them.

const { FC_SEED } = env as Cloudflare.Env & { FC_SEED: string };
const SEED = Number(FC_SEED);

type Step =
  | { kind: "create"; status: PetStatus }
  | { kind: "list" }
  | { kind: "close" }
  | { kind: "page"; walk: number; limit: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("create" as const), status: fc.constantFrom(...PET_STATUSES) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "list" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "close" as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("page" as const),
      walk: fc.nat(2),
      limit: fc.integer({ min: 1, max: 4 }),
    }),
  },
);

/** A walk under way: its filter, its cursor, what it has seen, and what it must see. */
type Walk = { status: PetStatus | undefined; cursor?: string; seen: Pet[]; owed: Set<number>; done: boolean };

const run = async (worker: SegmentIsolate, filters: (PetStatus | undefined)[], steps: Step[]) => {
  let listed = 1;
  let closed = 0;
  const created: Pet[] = [];
  const matches = (walk: Walk, pet: Pet) => walk.status === undefined || pet.status === walk.status;
  const startWalk = (status: PetStatus | undefined): Walk => ({
    status,
    seen: [],
    owed: new Set(created.filter((pet) => status === undefined || pet.status === status).map(({ id }) => id)),
    done: false,
  });
  const walks = filters.map(startWalk);
  const page = async (walk: Walk, limit: number) => {
    const context = worker.contextOf(segmentEnv(listed as 1 | 2 | 3));
    const found = worker.accepted(
      await worker.listPets.run(context, { limit, status: walk.status, cursor: walk.cursor }),
    );
    expect(context.db.usage.roundTrips).toBeLessThanOrEqual(2);
    walk.seen.push(...found.pets);
    walk.cursor = found.nextCursor;
    walk.done = found.nextCursor === undefined;
  };
  for (const next of steps) {
    if (next.kind === "create") {
      const context = worker.contextOf(segmentEnv(listed as 1 | 2 | 3));
      const { pet } = worker.accepted(
        await worker.createPet.run(context, {
          pet: { name: `p${created.length}`, categoryId: 1, status: next.status },
        }),
      );
      created.push(pet);
      // Owed to every walk not yet over: it was created before their last page.
      for (const walk of walks) if (!walk.done && matches(walk, pet)) walk.owed.add(pet.id);
    } else if (next.kind === "list" && listed < 3 && listed === closed + 1) {
      listed++;
    } else if (next.kind === "close" && closed < listed - 1) {
      await closeSegment(closed, Date.UTC(2027, 0, 1));
      closed++;
    } else if (next.kind === "page") {
      const walk = walks[next.walk] as Walk;
      if (!walk.done) await page(walk, next.limit);
    }
  }
  for (const walk of walks) {
    while (!walk.done) await page(walk, 4);
    const ids = walk.seen.map(({ id }) => id);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    expect(walk.seen.every((pet) => matches(walk, pet))).toBe(true);
    for (const id of walk.owed) expect(ids).toContain(id);
  }
};

describe(`walks across segments (seed ${SEED})`, () => {
  it("visit each pet once, by ascending id, and every pet owed to them", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(undefined, ...PET_STATUSES), { minLength: 3, maxLength: 3 }),
        fc.array(step, { minLength: 10, maxLength: 40 }),
        async (filters, steps) => {
          await freshSegments();
          await run(await startIsolate(), filters, steps);
        },
      ),
      { seed: SEED, numRuns: 40 },
    );
  });
});
