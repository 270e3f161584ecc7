// `npm run --silent usage:deprecated -- [--days N] [--env staging|production --remote | --persist-to DIR]`
//
// Who still calls the deprecated operations: per API key (its label and the start of
// its hash), each operation's calls in the last N days (default 30, today included) and
// the last call, most recent first. What an operator sends to the teams before a
// sunset. The Worker records the calls (src/deprecation/deprecated-operation.ts) right after answering them.
import { type Outcome, runAsCommand } from "./lib/command";
import { table } from "./lib/key-list";
import { parseOptions } from "./lib/options";
import { openStores } from "./lib/stores";
import { describeTarget, TARGET_OPTIONS, targetFrom } from "./lib/target";

const USAGE =
  "Usage: npm run --silent usage:deprecated -- [--days N] [--env staging|production --remote | --persist-to DIR]";

type Usage = { key_label: string; api_key_hash: string; operation: string; calls: number; last_call_at: number };

/** Runs `npm run usage:deprecated` with `args`: what it prints on stdout, a heading and a table. */
export const runUsage = async (args: string[]): Promise<Outcome> => {
  const { values } = parseOptions(
    { args, options: { ...TARGET_OPTIONS, days: { type: "string", default: "30" } } },
    USAGE,
  );
  const target = targetFrom(values);
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1) throw new Error("--days must be a whole number of days, at least 1.");
  const since = new Date(Date.now() - (days - 1) * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  // `since` is a date this script wrote, so it can stand in the SQL text.
  const query = `select key_label, api_key_hash, operation, sum(calls) as calls, max(last_call_at) as last_call_at
    from deprecated_calls where day >= '${since}'
    group by api_key_hash, operation order by last_call_at desc`;
  const stores = await openStores(target);
  const rows = await stores.query<Usage>(query).finally(stores.close);
  const heading = `Calls of deprecated operations since ${since}, ${describeTarget(target, "D1")}:`;
  if (rows.length === 0) return { printed: [heading, "none"] };
  const columns = ["key label", "key hash", "operation", "calls", "last call (UTC)"];
  const cells = rows.map((row) => [
    row.key_label,
    `${row.api_key_hash.slice(0, 12)}…`,
    row.operation,
    String(row.calls),
    new Date(row.last_call_at).toISOString().replace(/\.\d+Z$/, "Z"),
  ]);
  return { printed: [heading, ...table([columns, ...cells])] };
};

runAsCommand(import.meta.url, runUsage);
