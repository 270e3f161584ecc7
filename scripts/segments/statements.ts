// The SQL that makes a database a segment (src/db/segments.ts), run by `npm run segment:open`
// and by the tests that lay segments out. Each statement can run again with no further effect.
import { firstIdOf } from "../../src/db/segments";

/** Records the database's place and makes its first id the first of its range (an insert sets AUTOINCREMENT's counter, and the delete that follows leaves it there). */
export const startSegmentStatements = (position: number) => {
  const beforeFirst = firstIdOf(position) - 1;
  return [
    `INSERT INTO segment (position, closed_at) SELECT ${position}, NULL WHERE NOT EXISTS (SELECT 1 FROM segment)`,
    ...(beforeFirst > 0
      ? [
          `INSERT INTO pets (id, name, category_id, status) SELECT ${beforeFirst}, 'start of segment ${position}', 1, 'sold' WHERE NOT EXISTS (SELECT 1 FROM pets WHERE id >= ${beforeFirst}) AND NOT EXISTS (SELECT 1 FROM segment WHERE closed_at IS NOT NULL)`,
          `DELETE FROM pets WHERE id = ${beforeFirst}`,
        ]
      : []),
  ];
};

/** Closes the segment at `position`: from then on it refuses every new pet (drizzle/0005_closed_segment.sql). */
export const closeSegmentStatements = (position: number, closedAt: number) => [
  `INSERT INTO segment (position, closed_at) SELECT ${position}, NULL WHERE NOT EXISTS (SELECT 1 FROM segment)`,
  `UPDATE segment SET closed_at = ${closedAt} WHERE closed_at IS NULL`,
];
