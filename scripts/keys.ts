// Issues, rolls, lists and revokes API keys. Only a key's SHA-256 and its record reach
// KV; the key itself is printed once (the last line of stdout) and never stored.
//
//   npm run --silent key:create -- <label> [--scope read|write|read,write] [--expires <instant or duration>]
//   npm run --silent key:roll   -- <key or hash> [--overlap <duration>] [--expires <instant or duration>]
//   npm run --silent key:list
//   npm run --silent key:revoke -- <key or hash>
//   npm run --silent key:grants -- <key or hash> [--revoke <grant id>|all]
//
// Each also takes --env staging|production with --remote, or, locally, --persist-to <dir>:
// the local KV and D1 of a `wrangler dev --persist-to <dir>` (or `npm run dev -- --persist-to
// <dir>`) instead of the ones under .wrangler/state, as the e2e tests and the bench keep
// scratch state. Every argument is checked (scripts/lib/key-arguments.ts) before anything is
// read or written.
import { type ApiKeyRecord, hashApiKey, SCOPES } from "../src/keys/api-key";
import { type Outcome, runAsCommand } from "./lib/command";
import { openGrantStore } from "./lib/grant-store";
import { clock, type KeyCommand, parseKeyArguments } from "./lib/key-arguments";
import { grantTable, revokeGrants } from "./lib/key-grants";
import { keyTable, printable } from "./lib/key-list";
import { existingRecord, newKey, putRecord, readRecord, seenEverywhereAfterMs } from "./lib/key-records";
import { type ClaimWait, rollKey } from "./lib/key-roll";
import { openStores, type Stores } from "./lib/stores";
import { describeTarget, type Target } from "./lib/target";

export const createKey = async (
  label: string,
  target: Target,
  stores: Stores,
  limits: Pick<ApiKeyRecord, "scopes" | "expiresAt"> = {},
  now = Date.now(),
): Promise<string> => {
  const { key, record } = newKey(label, target, limits, now);
  await putRecord(stores, await hashApiKey(key), record);
  return key;
};

export const keyExists = async (key: string, stores: Stores): Promise<boolean> =>
  (await readRecord(stores, await hashApiKey(key))) !== undefined;

/** What a key command says, always, and prints (a new key is its last line). */
export type KeyOutcome = Required<Outcome>;

/** What a command runs with besides its arguments: the instant it takes as now, and how a roll waits. */
type Clock = { now: number; waitForClaims?: ClaimWait };

const runKeyCommand = async (
  command: KeyCommand,
  target: Target,
  stores: Stores,
  { now, waitForClaims }: Clock,
): Promise<KeyOutcome> => {
  /** An instant as ISO 8601, and when every isolate acts on a change made now, if that is later. */
  const everywhereBy = (instant: number) => {
    const seen = now + seenEverywhereAfterMs(target);
    return instant >= seen
      ? `at ${new Date(instant).toISOString()} in every isolate`
      : `at ${new Date(instant).toISOString()}, and in every isolate by ${new Date(seen).toISOString()} (an isolate acts on a changed key within ${seenEverywhereAfterMs(target) / 1000} s${target.remote ? ", KV's edge cache included" : ""})`;
  };
  switch (command.name) {
    case "create": {
      const { label, scopes, expiresAt } = command;
      const key = await createKey(label, target, stores, { scopes, expiresAt }, now);
      const said = `Created the key "${printable(label)}" (${(scopes ?? SCOPES).join(", ")}; expires ${expiresAt ?? "never"}) for ${describeTarget(target, "KV")}. It is shown once, below:`;
      return { said, printed: [key] };
    }
    case "roll": {
      const { key, oldExpiry, successor } = await rollKey(command, target, stores, now, waitForClaims);
      const expires = successor.expiresAt === undefined ? "never expires" : `expires at ${successor.expiresAt}`;
      const said = `Rolled the key: the old one stops working ${everywhereBy(oldExpiry)}; the new one ${expires} (${successor.why}). Switch the old key's clients to the new one, shown once, below:`;
      return { said, printed: [key] };
    }
    case "revoke": {
      await existingRecord(stores, command.hash, target);
      await stores.keys.delete(command.hash);
      const said = `Revoked the key with hash ${command.hash} in ${describeTarget(target, "KV")}: it stops working ${everywhereBy(now)}.`;
      return { said, printed: [] };
    }
    case "list":
      return keyTable(stores, target);
    case "grants":
      return grantsCommand(command, target);
  }
};

/** key:grants: the grants are in the sign-in Worker's OAUTH_KV, not the stores of keys. */
const grantsCommand = async ({ hash, revoke }: { hash: string; revoke?: string }, target: Target) => {
  const store = await openGrantStore(target);
  try {
    return await (revoke === undefined ? grantTable(store, hash) : revokeGrants(store, hash, revoke));
  } finally {
    await store.close();
  }
};

/**
 * Runs `npm run key:<command>` with `args` (the command first) at `now`, a roll waiting
 * for other rolls' claims as `waitForClaims` does (the clock's own time unless a test hands
 * it another): on the `stores` given (tests keep theirs open), or on those of the target
 * named, opened for the command.
 */
export const runKeys = async (
  args: string[],
  { now = clock(), waitForClaims, stores }: Partial<Clock> & { stores?: Stores } = {},
): Promise<KeyOutcome> => {
  const { command, target } = await parseKeyArguments(args, now);
  if (command.name === "grants") return grantsCommand(command, target);
  const opened = stores ?? (await openStores(target));
  try {
    return await runKeyCommand(command, target, opened, { now, waitForClaims });
  } finally {
    if (!stores) await opened.close();
  }
};

runAsCommand(import.meta.url, (args) => runKeys(args));
