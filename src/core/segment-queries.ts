// The queries about a segment itself (src/db/segments.ts): whether it is closed, read alone
// or beside a page of its pets in one batch.
import { and, asc, eq, gt } from "drizzle-orm";
import type { Database } from "../db/client";
import { pets, segment } from "../db/schema";
import type { Pet, PetStatus } from "../schemas";

/** When the segment was closed (Unix milliseconds), or null while it takes new pets. */
export const selectClosedAt = async (db: Database): Promise<number | null> =>
  (await db.select({ closedAt: segment.closedAt }).from(segment).get())?.closedAt ?? null;

/**
 * A page of the segment's pets and, in the same batch (one snapshot), whether the segment was
 * closed then: for a page that would go on into the next segment, which may hold pets only
 * once this one is closed.
 */
export const selectPageAndClosedAt = async (
  db: Database,
  { afterId, limit, status }: { afterId: number; limit: number; status: PetStatus | undefined },
): Promise<{ rows: Pet[]; closedAt: number | null }> => {
  const [rows, closure] = await db.batch([
    db
      .select()
      .from(pets)
      .where(and(gt(pets.id, afterId), status ? eq(pets.status, status) : undefined))
      .orderBy(asc(pets.id))
      .limit(limit),
    db.select({ closedAt: segment.closedAt }).from(segment),
  ]);
  return { rows, closedAt: closure[0]?.closedAt ?? null };
};
