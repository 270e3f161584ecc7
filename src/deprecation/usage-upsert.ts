import { is, Param, type Placeholder, sql } from "drizzle-orm";
import { unboundDatabase } from "../db/prepared";
import { deprecatedCalls } from "../db/schema";

// The write of counted calls (./usage.ts): rows added to a day's count, or inserted. Drizzle
// builds its SQL from the table once per number of rows, at most ROWS_PER_STATEMENT
// shapes, rather than on every flush; each flush binds its values to the SQL it built.

/** A row of counted calls, as the table holds it. */
export type UsageRow = typeof deprecatedCalls.$inferInsert;
type Column = keyof UsageRow;
const COLUMNS = ["apiKeyHash", "operation", "day", "keyLabel", "calls", "lastCallAt"] as const satisfies Column[];

const built = new Map<number, { sql: string; params: { row: number; column: Column }[] }>();

/** The SQL of an upsert of `rowCount` rows, and which value each of its parameters takes. */
const upsertOf = (rowCount: number) => {
  let upsert = built.get(rowCount);
  if (!upsert) {
    const placeholders = Array.from({ length: rowCount }, (_, row) =>
      Object.fromEntries(COLUMNS.map((column) => [column, sql.placeholder(`${row} ${column}`)])),
    ) as unknown as UsageRow[];
    const query = unboundDatabase()
      .insert(deprecatedCalls)
      .values(placeholders)
      .onConflictDoUpdate({
        target: [deprecatedCalls.apiKeyHash, deprecatedCalls.operation, deprecatedCalls.day],
        set: {
          keyLabel: sql`excluded.key_label`,
          calls: sql`${deprecatedCalls.calls} + excluded.calls`,
          lastCallAt: sql`max(${deprecatedCalls.lastCallAt}, excluded.last_call_at)`,
        },
      })
      .toSQL();
    const params = query.params.map((param) => {
      // Drizzle hands an inserted value over as a Param around it.
      const placeholder = (is(param, Param) ? param.value : param) as Placeholder;
      const [row, column] = placeholder.name.split(" ");
      return { row: Number(row), column: column as Column };
    });
    upsert = { sql: query.sql, params };
    built.set(rowCount, upsert);
  }
  return upsert;
};

/** The statement that adds `rows` to their days' counts, on `d1`. */
export const upsertStatement = (d1: D1Database, rows: UsageRow[]) => {
  const { sql: text, params } = upsertOf(rows.length);
  return d1.prepare(text).bind(...params.map(({ row, column }) => (rows[row] as UsageRow)[column]));
};
