import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { resetOwnModules } from "./reset-own-modules";

// Runs before each test file. The files share one runtime (isolate: false in
// vitest.config.ts), so each starts here as it would alone: the Worker's modules
// evaluated afresh (an isolate of its own: empty caches, no pending usage counts;
// ./reset-own-modules.ts) on empty storage, the migrations applied. The limiters keep
// their counts: each file is a client address of its own (test/helpers/index.ts).
resetOwnModules();

const { TEST_MIGRATIONS, STRADDLE_LIMITER_WINDOW, STRYKER_ACTIVE_MUTANT } = env as Cloudflare.Env & {
  TEST_MIGRATIONS: D1Migration[];
  STRADDLE_LIMITER_WINDOW: string;
  STRYKER_ACTIVE_MUTANT: string;
};
// Read from process.env by test/helpers/limiter-window.ts, as in the Node projects.
process.env.STRADDLE_LIMITER_WINDOW = STRADDLE_LIMITER_WINDOW;
// `npm run test:mutation` (scripts/mutation.ts): the mutant that StrykerJS's code switches on,
// which it reads from process.env, handed over from the pool's (empty otherwise).
if (STRYKER_ACTIVE_MUTANT) process.env.__STRYKER_ACTIVE_MUTANT__ = STRYKER_ACTIVE_MUTANT;
// applyD1Migrations() records what it applied, so repeating it is a no-op.
await applyD1Migrations(env.DB, TEST_MIGRATIONS);

const { results: leftovers } = await env.DB.prepare(
  "select type, name from sqlite_master where (type = 'table' and name not in ('d1_migrations', 'sqlite_sequence') and name not like '\\_cf\\_%' escape '\\') or type = 'trigger'",
).all<{ type: "table" | "trigger"; name: string }>();
// One transaction, its foreign keys checked at its end (idempotency records name pets).
await env.DB.batch([
  env.DB.prepare("pragma defer_foreign_keys = on"),
  ...leftovers.map(({ type, name }) =>
    env.DB.prepare(type === "trigger" ? `drop trigger "${name}"` : `delete from "${name}"`),
  ),
  env.DB.prepare("delete from sqlite_sequence"),
]);

for (let cursor: string | undefined; ; ) {
  const page: KVNamespaceListResult<unknown> = await env.API_KEYS.list({ cursor });
  await Promise.all(page.keys.map(({ name }) => env.API_KEYS.delete(name)));
  if (page.list_complete) break;
  cursor = page.cursor;
}
