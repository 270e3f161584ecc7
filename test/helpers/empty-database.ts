import { applyD1Migrations, type D1Migration } from "cloudflare:test";

// The triggers the migrations create; any other is a test's, and goes.
const triggersOf = (migrations: D1Migration[]) =>
  new Set(
    migrations.flatMap(({ queries }) =>
      queries.flatMap((query) => [...query.matchAll(/CREATE TRIGGER `(\w+)`/g)].map(([, name]) => name)),
    ),
  );

/** Applies the migrations to `database` (a no-op when applied: applyD1Migrations() records them) and empties it. */
export const startEmpty = async (database: D1Database, migrations: D1Migration[]) => {
  await applyD1Migrations(database, migrations);
  const { results } = await database
    .prepare(
      "select type, name from sqlite_master where (type = 'table' and name not in ('d1_migrations', 'sqlite_sequence') and name not like '\\_cf\\_%' escape '\\') or type = 'trigger'",
    )
    .all<{ type: "table" | "trigger"; name: string }>();
  const migrationTriggers = triggersOf(migrations);
  const leftovers = results.filter(({ type, name }) => type === "table" || !migrationTriggers.has(name));
  // One transaction, its foreign keys checked at its end (idempotency records name pets).
  await database.batch([
    database.prepare("pragma defer_foreign_keys = on"),
    ...leftovers.map(({ type, name }) =>
      database.prepare(type === "trigger" ? `drop trigger "${name}"` : `delete from "${name}"`),
    ),
    database.prepare("delete from sqlite_sequence"),
  ]);
};
