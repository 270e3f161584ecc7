// `npm run bench:clean-up [-- --rows N]`: how long a read waits while the hourly clean-up of
// idempotency records runs, on local D1 (wrangler's, in this process) with N expired records
// (1,000,000 by default): once as one statement deleting them all, as the clean-up did before
// it went in batches, and once as it runs now (src/db/clean-up.ts). D1 runs one query at a
// time per database, as its local simulator does: a read sent meanwhile waits for the
// statement in front of it. Prints the longest and the median wait of each, and how long each
// clean-up took. A measurement on this machine, for docs/architecture.md; not a test.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { getPlatformProxy } from "wrangler";
import { applyLocalMigrations } from "../scripts/lib/local-migrations";
import { deleteExpiredIdempotencyKeys } from "../src/core/queries";
import { createDatabase } from "../src/db/client";
import { median } from "./targets";

const { values } = parseArgs({ options: { rows: { type: "string", default: "1000000" } } });
const rows = Number(values.rows);
if (!Number.isSafeInteger(rows) || rows < 1) throw new Error("--rows must be a whole number of at least 1.");
const DAY_MS = 24 * 60 * 60 * 1000;
const INSERT_CHUNK = 100_000;

const persistTo = mkdtempSync(path.join(tmpdir(), "petstore-clean-up-"));
const { env, dispose } = await getPlatformProxy<Cloudflare.Env>({
  configPath: "wrangler.toml",
  persist: { path: path.join(persistTo, "v3") },
  remoteBindings: false,
});

const fill = async (now: number) => {
  for (let done = 0; done < rows; done += INSERT_CHUNK) {
    const chunk = Math.min(INSERT_CHUNK, rows - done);
    await env.DB.prepare(
      `insert into idempotency_keys (api_key_hash, idempotency_key, request_hash, pet_id, created_at)
       with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       select 'bench', 'k' || (? + i), 'request-hash-of-sixty-four-hex-digits-0123456789abcdef0123456789ab', 1, ? - i from n`,
    )
      .bind(chunk, done, now - 2 * DAY_MS)
      .run();
  }
};

/** Reads one pet over and over while `cleanUp` runs: each read's wait, in ms. */
const waitsDuring = async (cleanUp: () => Promise<unknown>) => {
  const waits: number[] = [];
  let running = true;
  const reader = (async () => {
    while (running) {
      const sent = performance.now();
      await env.DB.prepare("select id, name from pets where id = 1").first();
      waits.push(performance.now() - sent);
    }
  })();
  const started = performance.now();
  await cleanUp();
  const took = performance.now() - started;
  running = false;
  await reader;
  return { took, longest: Math.max(...waits), median: median(waits), reads: waits.length };
};

try {
  await applyLocalMigrations(env.DB);
  await env.DB.prepare("insert into pets (name, category_id, status) values ('Bench', 1, 'available')").run();
  const now = Date.now();
  const results: Record<string, Awaited<ReturnType<typeof waitsDuring>>> = {};
  await fill(now);
  results["one statement (before)"] = await waitsDuring(() =>
    env.DB.prepare("delete from idempotency_keys where created_at < ?")
      .bind(now - DAY_MS)
      .run(),
  );
  await fill(now);
  results["batches of 1,000 (now)"] = await waitsDuring(() =>
    deleteExpiredIdempotencyKeys(createDatabase(env.DB), now),
  );
  console.log(
    `Expired idempotency records: ${rows.toLocaleString("en")}; a read of one pet sent again and again meanwhile:`,
  );
  for (const [way, { took, longest, median: typical, reads }] of Object.entries(results)) {
    console.log(
      `  ${way}: clean-up ${(took / 1000).toFixed(2)} s; ${reads} reads, longest wait ${longest.toFixed(0)} ms, median ${typical.toFixed(1)} ms`,
    );
  }
} finally {
  await dispose();
  rmSync(persistTo, { recursive: true, force: true });
}
