// `npm run seed -- --count N [--persist-to DIR]`: adds N pets to the open segment of the local D1
// database (by default the one `npm run dev` uses, in .wrangler/state) with bulk
// multi-row INSERTs run by `wrangler d1 execute --file`: one wrangler call, not N
// HTTP calls, so 100,000 pets take seconds. bench/run.ts seeds its own scratch
// database with the same code.
//
// Which pets get which status is fixed, so that the bench knows its pages:
// - at most 10 pets are 'pending', spread evenly over the whole run (every
//   ceil(N/10)th), so `?status=pending` is always a partial page (fewer than the
//   default limit of 20), also after a cursor halfway through;
// - the others alternate: every third one 'sold', the rest 'available'.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { excerpt } from "../src/lib/display-text";
import type { PetStatus } from "../src/schemas";
import { parseOptions } from "./lib/options";
import { targetArgs } from "./lib/target";
import { wrangler } from "./lib/wrangler";
import { listedSegments } from "./segments/layout";

export const PENDING_PETS = 10;
// Rows per INSERT: each statement stays around 15 KB, well below SQLite's and D1's
// statement size limits (D1 allows 100 KB).
const ROWS_PER_STATEMENT = 500;

/** The status of the index-th pet (1-based) of a seeding run of `count` pets. */
export const seedStatus = (index: number, count: number): PetStatus => {
  if (index % Math.ceil(count / PENDING_PETS) === 0) return "pending";
  return index % 3 === 0 ? "sold" : "available";
};

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The SQL that inserts `count` valid pets (name 1..255 characters, positive categoryId, known status). */
export const seedSql = (count: number): string => {
  const statements: string[] = [];
  for (let first = 1; first <= count; first += ROWS_PER_STATEMENT) {
    const rows: string[] = [];
    for (let index = first; index < first + ROWS_PER_STATEMENT && index <= count; index++) {
      rows.push(`(${sqlString(`Seed pet ${index}`)}, ${1 + (index % 12)}, ${sqlString(seedStatus(index, count))})`);
    }
    statements.push(`INSERT INTO pets (name, category_id, status) VALUES\n${rows.join(",\n")};`);
  }
  return `${statements.join("\n")}\n`;
};

/**
 * Applies the migrations to every segment wrangler.toml lists, then inserts `count` pets into
 * the last, the open one once `npm run segment:open` has finished; returns the seconds it took.
 */
export const seedPets = ({ count, persistTo }: { count: number; persistTo?: string }): number => {
  const started = performance.now();
  const segments = listedSegments(readFileSync("wrangler.toml", "utf8"), undefined);
  for (const binding of segments) {
    wrangler(["d1", "migrations", "apply", binding, ...targetArgs({ remote: false, persistTo })]);
  }
  const open = segments.at(-1) ?? "DB";
  if (count > 0) {
    const scratch = mkdtempSync(path.join(tmpdir(), "petstore-seed-"));
    try {
      const file = path.join(scratch, "seed.sql");
      writeFileSync(file, seedSql(count));
      wrangler(["d1", "execute", open, ...targetArgs({ remote: false, persistTo }), "--file", file]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return (performance.now() - started) / 1000;
};

/** The most pets one run adds: its SQL file stays within tens of megabytes. */
export const MAX_SEED_COUNT = 1_000_000;

const USAGE = `Usage: npm run seed -- --count N [--persist-to DIR]   (N: decimal digits, 0 to ${MAX_SEED_COUNT})`;

/** --count: decimal digits only (not 1e1, 0x3 or " 2"), 0 to MAX_SEED_COUNT. */
export const parseSeedCount = (text: string | undefined): number => {
  if (text === undefined) throw new Error(`--count is missing: how many pets to add.\n${USAGE}`);
  if (!/^\d{1,7}$/.test(text) || Number(text) > MAX_SEED_COUNT) {
    // The number meant, where the text is one in another spelling (1e3, 0x10, " 20"): said as digits.
    const meant = Number(text.trim());
    const near =
      text.trim() !== "" && Number.isSafeInteger(meant) && meant >= 0 && meant <= MAX_SEED_COUNT
        ? `: did you mean --count ${meant}?`
        : "";
    throw new Error(
      `--count is '${excerpt(text)}'${near || "."} It must be decimal digits, 0 to ${MAX_SEED_COUNT}.\n${USAGE}`,
    );
  }
  return Number(text);
};

const main = () => {
  const { values } = parseOptions(
    { args: process.argv.slice(2), options: { count: { type: "string" }, "persist-to": { type: "string" } } },
    USAGE,
  );
  const count = parseSeedCount(values.count);
  const persistTo = values["persist-to"];
  const seconds = seedPets({ count, persistTo });
  const where = persistTo ?? ".wrangler/state";
  console.log(`Seeded ${count} pets into the local D1 database (${where}) in ${seconds.toFixed(1)} s.`);
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    main();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
