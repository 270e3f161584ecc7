import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { NAME_MAX_LENGTH, PET_STATUSES } from "../schemas";

const statusList = sql.raw(PET_STATUSES.map((status) => `'${status}'`).join(", "));

// The checks repeat the wire rules in the database, so that no path that skips
// the validator (a bug, a console query) can store a pet the API could not serve.
export const pets = sqliteTable(
  "pets",
  {
    // AUTOINCREMENT: ids only grow and are never reused, even after a delete.
    id: integer().primaryKey({ autoIncrement: true }),
    name: text().notNull(),
    categoryId: integer().notNull(),
    status: text({ enum: PET_STATUSES }).notNull(),
  },
  (table) => [
    index("pets_status_id_idx").on(table.status, table.id),
    check("pets_name_length", sql`length(${table.name}) between 1 and ${sql.raw(String(NAME_MAX_LENGTH))}`),
    check("pets_category_id_positive", sql`${table.categoryId} > 0`),
    check("pets_status_known", sql`${table.status} in (${statusList})`),
  ],
);
