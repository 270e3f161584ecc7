// Which segment takes creates, as this isolate knows it: the open one is the last of
// PET_SEGMENTS once the one before it is closed, and that one until then (`npm run
// segment:open` deploys a new segment's binding before it closes the previous one). Learned
// from the segments' own rows, and kept for the isolate's life (by PET_SEGMENTS): a closed
// segment stays closed.

import type { SegmentSessions } from "../db/segment-sessions";
import { CLOSED_SEGMENT, type SegmentLayout } from "../db/segments";
import { messagesOf } from "../lib/faults";
import { unavailable } from "./refusal";
import { selectClosedAt } from "./segment-queries";

type Knowledge = { open?: number; readonly closedAt: Map<number, number> };
const knowledge = new Map<string, Knowledge>();

const knowledgeOf = (layout: SegmentLayout): Knowledge => {
  let known = knowledge.get(layout.key);
  if (!known) {
    known = { closedAt: new Map() };
    knowledge.set(layout.key, known);
  }
  return known;
};

/** That segment `position` was closed at `closedAt` (or by then): the next one is open. */
export const learnClosed = (sessions: SegmentSessions, position: number, closedAt: number) => {
  const known = knowledgeOf(sessions.layout);
  if (!known.closedAt.has(position)) known.closedAt.set(position, closedAt);
  known.open = Math.max(known.open ?? 0, position + 1);
};

/**
 * Whether segment `position` may still take new pets: only the last two may (the script
 * opens one segment at a time), until this isolate knows otherwise.
 */
export const mayBeOpen = (sessions: SegmentSessions, position: number) => {
  if (position < sessions.count - 2) return false;
  const known = knowledgeOf(sessions.layout);
  return !known.closedAt.has(position) && position >= (known.open ?? 0);
};

/** The segment that takes creates; on an isolate's first create with two segments or more, read from the one before the last. */
const openSegment = async (sessions: SegmentSessions): Promise<number> => {
  const known = knowledgeOf(sessions.layout);
  if (known.open !== undefined) return known.open;
  const last = sessions.count - 1;
  if (last === 0) return 0;
  const closedAt = await sessions.segment(last - 1).primary(selectClosedAt);
  if (closedAt === null) known.open ??= last - 1;
  else learnClosed(sessions, last - 1, closedAt);
  return known.open ?? last;
};

/**
 * Segments before `open` that may hold an Idempotency-Key record younger than `windowMs` at
 * `now`: those closed within the window (and a margin for the clocks of the machine that
 * closed them), newest first. Each closed segment's time is read once per isolate.
 */
export const recentlyClosed = async (
  sessions: SegmentSessions,
  open: number,
  { now, windowMs }: { now: number; windowMs: number },
): Promise<number[]> => {
  const known = knowledgeOf(sessions.layout);
  const found: number[] = [];
  for (let position = open - 1; position >= 0; position--) {
    let closedAt = known.closedAt.get(position);
    if (closedAt === undefined) {
      closedAt = (await sessions.segment(position).primary(selectClosedAt)) ?? now;
      known.closedAt.set(position, closedAt);
    }
    if (closedAt < now - windowMs - CLOCK_MARGIN_MS) break;
    found.push(position);
  }
  return found;
};

/** How far the clock of the machine that closed a segment may be from the Workers'. */
export const CLOCK_MARGIN_MS = 5 * 60 * 1000;

const isClosedRefusal = (error: unknown) => messagesOf(error).some((message) => message.includes(CLOSED_SEGMENT));

/**
 * Runs `write` on the open segment. A segment that refuses the pet was closed since this
 * isolate learned otherwise: its refusal wrote nothing, so `write` runs once more, on the
 * next segment. With no next segment (a Worker older than the segment that is now open),
 * the create is 503: its retry reaches a Worker that knows the open segment.
 */
export const inOpenSegment = async <T>(
  sessions: SegmentSessions,
  now: number,
  write: (position: number) => Promise<T>,
): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    const position = await openSegment(sessions);
    if (position >= sessions.count) throw unavailable("The database", "");
    try {
      return await write(position);
    } catch (error) {
      if (attempt > 1 || !isClosedRefusal(error)) throw error;
      learnClosed(sessions, position, now);
    }
  }
};
