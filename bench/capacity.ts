// `npm run bench:capacity`: the figures of docs/architecture.md's capacity section that this
// machine can measure. Bytes per pet and per idempotency record: the growth of a SQLite
// database with D1's schema (pages in use, indexes included) over 20,000 rows, with names and
// keys of a typical and of the maximum length. Creates per second: `POST /v1/pets` against the Worker
// in wrangler's test harness on local D1, with and without `Idempotency-Key`, for 10 s each,
// over 32 connections: a lower bound, as the local simulator serializes more than D1 does.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import autocannon from "autocannon";
import { createTestHarness } from "wrangler";
import { generateApiKey, hashApiKey } from "../src/keys/api-key";

const ROWS = 20_000;

// The same schema as D1's, from drizzle/'s migrations, in a SQLite database of this process:
// D1 refuses the pragmas that say how many pages are in use.
const database = new DatabaseSync(":memory:");
for (const file of readdirSync("drizzle")
  .filter((name) => name.endsWith(".sql"))
  .sort()) {
  for (const statement of readFileSync(path.join("drizzle", file), "utf8").split("--> statement-breakpoint")) {
    if (statement.trim()) database.exec(statement);
  }
}
const pragma = (name: string) => Number(Object.values(database.prepare(`pragma ${name}`).get() ?? {})[0]);
const bytesInUse = () => (pragma("page_count") - pragma("freelist_count")) * pragma("page_size");

/** Bytes per row that `sql` (which adds ROWS rows, given `values`) grows the database by. */
const perRow = (sql: string, ...values: (string | number)[]) => {
  const before = bytesInUse();
  database.prepare(sql).run(ROWS, ...values);
  return (bytesInUse() - before) / ROWS;
};
const PETS = `insert into pets (name, category_id, status)
  with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) select ?, 1, 'available' from n`;
const RECORDS = `insert into idempotency_keys (api_key_hash, idempotency_key, request_hash, pet_id, created_at)
  with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
  select ?, substr(? || i || ?, 1, ?), ?, 1, 1795000000000 + i from n`;

const sizes = {
  "pet, name of 14 ASCII characters": perRow(PETS, "Rex the Second"),
  "pet, name of 255 ASCII characters": perRow(PETS, "n".repeat(255)),
  "pet, name of 255 astral characters (4 bytes each)": perRow(PETS, "🐈".repeat(255)),
  "idempotency record, a UUID as its key (36 characters)": perRow(
    RECORDS,
    "a".repeat(64),
    "0b6f9a5e-3c1d-4e2f-8a7b-",
    "x".repeat(300),
    36,
    "b".repeat(64),
  ),
  "idempotency record, a key of 255 characters": perRow(
    RECORDS,
    "a".repeat(64),
    "k",
    "x".repeat(300),
    255,
    "b".repeat(64),
  ),
};
console.log("Bytes per row in SQLite with the schema of drizzle/ (pages in use, indexes included):");
for (const [what, bytes] of Object.entries(sizes)) console.log(`  ${what}: ${Math.round(bytes)}`);

const rate = async (origin: string, key: string, keyed: boolean) => {
  const result = await autocannon({
    url: `${origin}/v1/pets`,
    method: "POST",
    connections: 32,
    duration: 10,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Rex the Second", categoryId: 1 }),
    requests: keyed
      ? [
          {
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, "Idempotency-Key": crypto.randomUUID() },
            }),
          },
        ]
      : undefined,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx and ${result.errors} errors`);
  return result.requests.average;
};

const harness = createTestHarness({
  workers: [
    {
      configPath: "./wrangler.toml",
      secrets: { CURSOR_SECRET: "capacity-cursor-secret-0123456789abcdef", CURSOR_SECRET_PREVIOUS: "" },
    },
    { configPath: "./wrangler.auth.toml" },
  ],
});
try {
  const { url } = await harness.listen();
  await harness.getWorker().applyD1Migrations("DB");
  const key = generateApiKey("development");
  const keys = (await harness.getWorker<Cloudflare.Env>().getEnv()).API_KEYS;
  await keys.put(await hashApiKey(key), JSON.stringify({ label: "capacity", createdAt: new Date().toISOString() }));
  console.log("Creates per second on local D1 (32 connections, 10 s each; a lower bound):");
  console.log(`  without Idempotency-Key: ${Math.round(await rate(url.origin, key, false))}`);
  console.log(`  with Idempotency-Key: ${Math.round(await rate(url.origin, key, true))}`);
} finally {
  await harness.close();
}
