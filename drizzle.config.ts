import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates the SQL; wrangler applies it (`wrangler d1 migrations
// apply` reads the same drizzle/ folder, see migrations_dir in wrangler.toml).
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema.ts",
  out: "./drizzle",
  casing: "snake_case",
});
