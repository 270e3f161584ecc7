import { and, asc, eq, gt, gte, lt, sql } from "drizzle-orm";
import { deleteBelow, type QueryBudget } from "../db/clean-up";
import type { Database, RequestDatabase } from "../db/client";
import { prepared, runPrepared } from "../db/prepared";
import { idempotencyKeys, pets } from "../db/schema";
import { messagesOf } from "../lib/faults";
import { sha256Hex } from "../lib/sha256";
import type { NewPet, Pet, PetStatus } from "../schemas";

/** How long an Idempotency-Key's record guards its key. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Keyset pagination: the pets after `afterId`, by ascending id (no OFFSET, so deep pages cost the same). */
const listingOf = (db: Database, byStatus: boolean) =>
  db
    .select()
    .from(pets)
    .where(
      and(gt(pets.id, sql.placeholder("afterId")), byStatus ? eq(pets.status, sql.placeholder("status")) : undefined),
    )
    .orderBy(asc(pets.id))
    .limit(sql.placeholder("limit"))
    .prepare();
const listing = prepared((db) => listingOf(db, false));
const listingByStatus = prepared((db) => listingOf(db, true));
/** The listing's query for a filter (test/worker/pets/query-plan.test.ts reads its plan). */
export const listingQuery = (status: PetStatus | undefined) => (status ? listingByStatus() : listing());

export const selectPage = (
  db: Database,
  { afterId, limit, status }: { afterId: number; limit: number; status: PetStatus | undefined },
): Promise<Pet[]> => runPrepared(db, () => listingQuery(status).all({ afterId, limit, status }));

const byId = prepared((db) =>
  db
    .select()
    .from(pets)
    .where(eq(pets.id, sql.placeholder("id")))
    .prepare(),
);
export const selectPet = (db: Database, id: number): Promise<Pet | undefined> =>
  runPrepared(db, () => byId().get({ id }));

const insertion = prepared((db) =>
  db
    .insert(pets)
    .values({
      name: sql.placeholder("name"),
      categoryId: sql.placeholder("categoryId"),
      status: sql.placeholder("status"),
    })
    .returning()
    .prepare(),
);
export const insertPet = (db: Database, pet: NewPet): Promise<Pet> =>
  runPrepared(db, async () => {
    const created = await insertion().get(pet);
    if (!created) throw new Error("the pet insert returned no row");
    return created;
  });

/** `apiKeyHash`: the caller's id (callerId in src/keys/api-key.ts), under which its keys are recorded. */
export type IdempotentRequest = { apiKeyHash: string; idempotencyKey: string; now: number };
export type IdempotentOutcome = { pet: Pet; replayed: boolean; sameRequest: boolean };

/** Two bodies are the same request when they validate to the same pet. */
const requestHashOf = ({ name, categoryId, status }: NewPet) => sha256Hex(JSON.stringify([name, categoryId, status]));

/** Whether a write failed because the Idempotency-Key is already recorded (the record's primary key). */
const isRecordedKey = (error: unknown) =>
  messagesOf(error).some((message) => message.includes("UNIQUE constraint failed: idempotency_keys."));

/**
 * Creates the pet and records the Idempotency-Key in one D1 batch (one transaction,
 * one round trip): a crash can lose neither half, so the batch is safe to retry. When
 * the key was already used within the window (the first attempt may even have
 * committed before its answer was lost), the batch fails on the record's primary key
 * and rolls back whole, and the pet recorded the first time is answered instead, read
 * from the primary: a replica may not have the record yet.
 */
export const insertPetOnce = async (
  db: RequestDatabase,
  pet: NewPet,
  request: IdempotentRequest,
): Promise<IdempotentOutcome> => {
  const { apiKeyHash, idempotencyKey, now } = request;
  const requestHash = await requestHashOf(pet);
  try {
    const [, created] = await db.idempotent((session) =>
      session.batch([
        // An expired record no longer guards its key; the hourly prune may not have run yet.
        session
          .delete(idempotencyKeys)
          .where(and(sameKey(request), lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_WINDOW_MS))),
        session.insert(pets).values(pet).returning(),
        session
          .insert(idempotencyKeys)
          .values({ apiKeyHash, idempotencyKey, requestHash, petId: sql`last_insert_rowid()`, createdAt: now }),
      ]),
    );
    const [createdPet] = created;
    if (!createdPet) throw new Error("the pet insert returned no row");
    return { pet: createdPet, replayed: false, sameRequest: true };
  } catch (error) {
    if (!isRecordedKey(error)) throw error;
    const previous = await recordedOutcome(db, pet, request);
    if (!previous) throw new Error("the Idempotency-Key is recorded, but its pet could not be read", { cause: error });
    return previous;
  }
};

const sameKey = ({ apiKeyHash, idempotencyKey }: IdempotentRequest) =>
  and(eq(idempotencyKeys.apiKeyHash, apiKeyHash), eq(idempotencyKeys.idempotencyKey, idempotencyKey));

/**
 * The replay of the pet recorded under the key within the window, if this database has one,
 * read from the primary: a replica may not have the record yet.
 */
export const recordedOutcome = async (
  db: RequestDatabase,
  pet: NewPet,
  request: IdempotentRequest,
): Promise<IdempotentOutcome | undefined> => {
  const previous = await db.primary((primary) =>
    primary
      .select({ requestHash: idempotencyKeys.requestHash, pet: pets })
      .from(idempotencyKeys)
      .innerJoin(pets, eq(pets.id, idempotencyKeys.petId))
      .where(and(sameKey(request), gte(idempotencyKeys.createdAt, request.now - IDEMPOTENCY_WINDOW_MS)))
      .get(),
  );
  if (!previous) return undefined;
  return { pet: previous.pet, replayed: true, sameRequest: previous.requestHash === (await requestHashOf(pet)) };
};

/** The records older than the window, in batches (src/db/clean-up.ts), oldest first. */
export const deleteExpiredIdempotencyKeys = (db: Database, now: number, clock?: () => number, budget?: QueryBudget) =>
  deleteBelow(db, idempotencyKeys, idempotencyKeys.createdAt, now - IDEMPOTENCY_WINDOW_MS, clock, budget);
