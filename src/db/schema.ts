import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
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

/**
 * One row per Idempotency-Key, scoped to the API key that sent it. A pet never
 * changes, so the pet it created is the whole recorded answer: a replay is 201,
 * the pet, and its Location.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    /** The caller's (callerId in src/keys/api-key.ts): the first key's hash, shared by the keys rolled from it. */
    apiKeyHash: text().notNull(),
    idempotencyKey: text().notNull(),
    /** SHA-256 of the validated request body, to tell a retry from a reuse. */
    requestHash: text().notNull(),
    petId: integer()
      .notNull()
      .references(() => pets.id),
    /** Unix milliseconds. */
    createdAt: integer().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.apiKeyHash, table.idempotencyKey] }),
    index("idempotency_keys_created_at_idx").on(table.createdAt),
  ],
);

/**
 * Calls of deprecated operations, one row per API key, operation and UTC day: who still
 * calls them before their sunset (`npm run usage:deprecated`). The key's label is kept
 * beside its hash so that the report names the team; rows older than
 * DEPRECATED_USAGE_RETENTION_DAYS are pruned by the hourly cron.
 */
export const deprecatedCalls = sqliteTable(
  "deprecated_calls",
  {
    apiKeyHash: text().notNull(),
    keyLabel: text().notNull(),
    operation: text().notNull(),
    /** The UTC day of the calls, YYYY-MM-DD. */
    day: text().notNull(),
    calls: integer().notNull(),
    /** Unix milliseconds. */
    lastCallAt: integer().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.apiKeyHash, table.operation, table.day] }),
    index("deprecated_calls_day_idx").on(table.day),
  ],
);

/**
 * The last UTC day each API key was used (`npm run key:list` shows it): written at most
 * once per key, isolate and day, in the background (src/keys/last-used.ts). Apart from
 * the key's KV record, so that no write of it can race a revocation.
 */
export const apiKeyLastUsed = sqliteTable("api_key_last_used", {
  apiKeyHash: text().primaryKey(),
  /** YYYY-MM-DD. */
  day: text().notNull(),
});

/**
 * What this database is as a segment of the pets (src/db/segments.ts): at most one row,
 * written by `npm run segment:open` (scripts/segments/). Once `closedAt` is set, the
 * database refuses every new pet (the trigger of drizzle/0005_closed_segment.sql), so that a
 * Worker still writing here is told, and creates in the next segment instead. A deployment's
 * first database has no row until a second segment is opened: it is segment 0, open.
 */
export const segment = sqliteTable("segment", {
  /** The segment's place in PET_SEGMENTS, which names its range of ids. */
  position: integer().primaryKey(),
  /** Unix milliseconds; null while the segment takes new pets. */
  closedAt: integer(),
});
