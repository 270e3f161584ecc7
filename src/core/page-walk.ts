// A page of the listing across segments (src/db/segments.ts): ids only grow from one segment
// to the next, so the keyset walk goes on from the segment that holds the cursor's id into the
// one after it. A page queries two segments at most: when both end before the page is full
// and more segments follow, it is answered short, with the next page's position at the end
// of the second (a status filter can find no match in whole segments).
import type { SegmentSessions } from "../db/segment-sessions";
import { lastIdOf, segmentOf } from "../db/segments";
import type { Pet, PetStatus } from "../schemas";
import { learnClosed, mayBeOpen } from "./open-segment";
import { selectPage } from "./queries";
import { Refusal } from "./refusal";
import { selectPageAndClosedAt } from "./segment-queries";

type WalkPosition = { afterId: number; limit: number; status: PetStatus | undefined };
/** Up to `limit` rows of the page (one more tells that a next page exists), and where a short page's next one starts after. */
export type WalkedPage = { rows: Pet[]; onwardAfterId?: number };

/**
 * Up to `limit` pets of segment `position` after `afterId`, and whether the walk may go on
 * into the next segment: only once this one is closed, as the next takes pets only then
 * (when it may still be open, the same batch says whether it was, in the same snapshot).
 */
const readSegment = async (
  sessions: SegmentSessions,
  position: number,
  query: WalkPosition,
): Promise<{ rows: Pet[]; mayGoOn: boolean }> => {
  const db = sessions.segment(position);
  const isLast = position === sessions.count - 1;
  if (isLast || !mayBeOpen(sessions, position)) {
    return { rows: await db.idempotent((session) => selectPage(session, query)), mayGoOn: !isLast };
  }
  const { rows, closedAt } = await db.idempotent((session) => selectPageAndClosedAt(session, query));
  if (closedAt !== null) learnClosed(sessions, position, closedAt);
  return { rows, mayGoOn: closedAt !== null };
};

/** The rows of the page after `afterId` (`limit` counts the extra row that tells whether more follow). */
export const walkPage = async (
  sessions: SegmentSessions,
  { afterId, limit, status }: WalkPosition,
): Promise<WalkedPage> => {
  const position = segmentOf(afterId + 1);
  if (position >= sessions.count) {
    throw new Refusal("invalid_request", "The value of 'cursor' points past the end of the listing.");
  }
  const first = await readSegment(sessions, position, { afterId, limit, status });
  if (first.rows.length >= limit || !first.mayGoOn) return { rows: first.rows };
  const next = position + 1;
  const second = await readSegment(sessions, next, {
    afterId: lastIdOf(position),
    limit: limit - first.rows.length,
    status,
  });
  const rows = first.rows.concat(second.rows);
  if (rows.length >= limit || !second.mayGoOn) return { rows };
  return { rows, onwardAfterId: lastIdOf(next) };
};
