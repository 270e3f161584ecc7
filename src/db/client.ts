import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";

export type Database = DrizzleD1Database;

// snake_case columns in SQL, camelCase keys in TypeScript, with no column-name strings.
export const createDatabase = (d1: D1Database): Database => drizzle(d1, { casing: "snake_case" });
