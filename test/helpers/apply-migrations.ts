import type { D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { startEmpty } from "./empty-database";
import { resetOwnModules } from "./reset-own-modules";
import { layOutSegments } from "./segments";

// Runs before each test file. The files share one runtime (isolate: false in
// vitest.config.ts), so each starts here as it would alone: the Worker's modules
// evaluated afresh (an isolate of its own: empty caches, no pending usage counts;
// ./reset-own-modules.ts) on empty storage, the migrations applied. The limiters keep
// their counts: each file is a client address of its own (test/helpers/index.ts).
resetOwnModules();

const { TEST_MIGRATIONS, STRADDLE_LIMITER_WINDOW, STRYKER_ACTIVE_MUTANT, PETS_1, PETS_2 } = env as Cloudflare.Env & {
  TEST_MIGRATIONS: D1Migration[];
  PETS_1: D1Database;
  PETS_2: D1Database;
  STRADDLE_LIMITER_WINDOW: string;
  STRYKER_ACTIVE_MUTANT: string;
};
// Read from process.env by test/helpers/limiter-window.ts, as in the Node projects.
process.env.STRADDLE_LIMITER_WINDOW = STRADDLE_LIMITER_WINDOW;
// `npm run test:mutation` (scripts/mutation.ts): the mutant that StrykerJS's code switches on,
// which it reads from process.env, handed over from the pool's (empty otherwise).
if (STRYKER_ACTIVE_MUTANT) process.env.__STRYKER_ACTIVE_MUTANT__ = STRYKER_ACTIVE_MUTANT;
// Every segment a test may name (src/db/segments.ts); the layout is each test's.
await Promise.all([env.DB, PETS_1, PETS_2].map((database) => startEmpty(database, TEST_MIGRATIONS)));
// The project of three segments (vitest.config.ts) starts where `npm run segment:open` leaves a
// deployment that opened its third: segment 0 closed (long ago), 1 open, 2 listed.
if (env.PET_SEGMENTS !== "DB") await layOutSegments();

for (let cursor: string | undefined; ; ) {
  const page: KVNamespaceListResult<unknown> = await env.API_KEYS.list({ cursor });
  await Promise.all(page.keys.map(({ name }) => env.API_KEYS.delete(name)));
  if (page.list_complete) break;
  cursor = page.cursor;
}
