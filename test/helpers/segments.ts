// Segments laid out as `npm run segment:open` lays them (scripts/segments/statements.ts), on
// the three databases the worker project binds: DB, PETS_1, PETS_2 (vitest.config.ts).
import type { D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { closeSegmentStatements, startSegmentStatements } from "../../scripts/segments/statements";
import { startEmpty } from "./empty-database";

const bound = env as Cloudflare.Env & { PETS_1: D1Database; PETS_2: D1Database; TEST_MIGRATIONS: D1Migration[] };

/** The three segments' databases, in the order of their ranges. */
export const segmentDatabases: readonly D1Database[] = [env.DB, bound.PETS_1, bound.PETS_2];

/**
 * The Worker's env with the first `count` segments, as a deployment lists them after opening
 * its `count`th (so the one before the last is closed, or closes next). A new object each
 * time: the Worker learns which segment is open once per env (src/core/open-segment.ts), as
 * an isolate does, so each call is a fresh isolate's.
 */
export const segmentEnv = (count: 1 | 2 | 3) => ({
  ...env,
  PET_SEGMENTS: ["DB", "PETS_1", "PETS_2"].slice(0, count).join(" "),
  PETS_1: bound.PETS_1,
  PETS_2: bound.PETS_2,
});

const runAll = (database: D1Database, statements: string[]) =>
  database.batch(statements.map((statement) => database.prepare(statement)));

/** Segments 1 and 2 started (their first ids set), segment 0 open: the state after `npm run segment:open` created them. */
export const startSegments = async () => {
  for (const [position, database] of segmentDatabases.entries())
    await runAll(database, startSegmentStatements(position));
};

/** Closes segment `position` at `closedAt`, as the script's last step does. */
export const closeSegment = (position: number, closedAt: number) => {
  const database = segmentDatabases[position];
  if (!database) throw new Error(`no segment ${position}`);
  return runAll(database, closeSegmentStatements(position, closedAt));
};

/** Segments started, and segment 0 closed at the epoch: the Worker's three segments in the project of three (vitest.config.ts). */
export const layOutSegments = async () => {
  await startSegments();
  await closeSegment(0, 0);
};

/** The three databases emptied, segments started again. */
export const freshSegments = async () => {
  await Promise.all(segmentDatabases.map((database) => startEmpty(database, bound.TEST_MIGRATIONS)));
  await startSegments();
};

/** How many pets each segment holds. */
export const petsPerSegment = (): Promise<number[]> =>
  Promise.all(
    segmentDatabases.map(
      async (database) => (await database.prepare("SELECT count(*) AS n FROM pets").first<{ n: number }>())?.n ?? 0,
    ),
  );

/** The binding of the segment that takes new pets in this project (vitest.config.ts): DB with one segment, PETS_1 with three (segment 0 closed). */
export const OPEN_SEGMENT_BINDING = env.PET_SEGMENTS === "DB" ? "DB" : "PETS_1";

/** That segment's position: the order of its range. */
export const OPEN_SEGMENT = OPEN_SEGMENT_BINDING === "DB" ? 0 : 1;

/** The database that takes new pets in this project, for the tests that look at what was stored. */
export const petsDatabase = (): D1Database => (OPEN_SEGMENT_BINDING === "DB" ? env.DB : bound.PETS_1);

/** The databases of the segments this project's Worker lists (vitest.config.ts). */
export const listedSegmentDatabases = (): D1Database[] => segmentDatabases.slice(0, env.PET_SEGMENTS.split(" ").length);

/**
 * The queries of a page read from the first pet on: one, or, in the project of three, two (segment
 * 0 holds no pet there, so the walk goes on into segment 1, where they are).
 */
export const FIRST_PAGE_QUERIES = env.PET_SEGMENTS === "DB" ? 1 : 2;

/**
 * Pets 1 to `lastId` in segment 0 closed, as a deployment's first database holds the pets it
 * had before it opened segment 1: the closing is lifted for the insert and put back in the same batch.
 */
export const petsInClosedSegmentZero = async (lastId: number) => {
  const db = env.DB;
  const closing = await db.prepare("SELECT closed_at FROM segment").first<{ closed_at: number }>();
  if (closing?.closed_at == null) throw new Error("segment 0 is not closed");
  await db.batch([
    db.prepare("UPDATE segment SET closed_at = NULL"),
    db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT OR IGNORE INTO pets (id, name, category_id, status) SELECT i, 'Filler', 1, 'available' FROM n`,
      )
      .bind(lastId),
    db.prepare("UPDATE segment SET closed_at = ?").bind(closing.closed_at),
  ]);
};
