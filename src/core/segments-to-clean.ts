// Which segments the hourly clean-up of idempotency records looks at (src/index.ts): those that
// may still hold a record, expired or not. A closed segment takes no record after its closing,
// so once two windows have passed since, the runs in between have deleted every record it had.
import type { QueryBudget } from "../db/clean-up";
import { createDatabase, type Database } from "../db/client";
import type { SegmentLayout } from "../db/segments";
import { CLOCK_MARGIN_MS } from "./open-segment";
import { IDEMPOTENCY_WINDOW_MS } from "./queries";
import { selectClosedAt } from "./segment-queries";

/**
 * The segments to clean at `now`, newest first: the last two (either may be
 * open), and each one before them closed within two windows. Reads each one's closing, one
 * query each from `budget`, newest first, until one closed before that: those before it were
 * closed earlier still.
 */
export const segmentsToClean = async (
  layout: SegmentLayout,
  now: number,
  budget: QueryBudget,
): Promise<{ position: number; db: Database }[]> => {
  const databases = layout.databases.map(createDatabase);
  const found: { position: number; db: Database }[] = [];
  for (let position = databases.length - 1; position >= 0 && budget.left > 0; position--) {
    const db = databases[position] as Database;
    if (position < databases.length - 2) {
      budget.left--;
      const closedAt = await selectClosedAt(db);
      if (closedAt !== null && closedAt < now - 2 * IDEMPOTENCY_WINDOW_MS - CLOCK_MARGIN_MS) break;
    }
    found.push({ position, db });
  }
  return found;
};
