import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";

export type Database = DrizzleD1Database;

// snake_case columns in SQL, camelCase keys in TypeScript, with no column-name strings.
const options = { casing: "snake_case" } as const;

export const createDatabase = (d1: D1Database): Database => drizzle(d1, options);

/**
 * A D1 session (read replication): reads may go to the nearest replica, and a
 * session started from a client's bookmark sees at least everything that bookmark
 * saw, so a client that sends back the last bookmark it got reads its own writes.
 * Drizzle's D1 driver only calls prepare() and batch(), which a session has too.
 */
export const createSessionDatabase = (d1: D1Database, bookmark: string | undefined) => {
  const session = d1.withSession(bookmark ?? "first-unconstrained");
  return { session, db: drizzle(session as unknown as D1Database, options) };
};
