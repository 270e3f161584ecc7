// Issues, rolls, lists and revokes API keys. Only a key's SHA-256 and its record reach
// KV; the key itself is printed once (the last line of stdout) and never stored.
//
//   npm run --silent key:create -- <label> [--scope read|write|read,write] [--expires <instant or duration>]
//   npm run --silent key:roll   -- <key or hash> [--overlap <duration>] [--expires <instant or duration>]
//   npm run --silent key:list
//   npm run --silent key:revoke -- <key or hash>
//
// Each also takes --env staging|production with --remote, or, locally, --persist-to <dir>:
// the local KV and D1 of a `wrangler dev --persist-to <dir>` (or `npm run dev -- --persist-to
// <dir>`) instead of the ones under .wrangler/state, as the e2e tests and the bench keep
// scratch state. Every argument is checked (scripts/lib/key-arguments.ts) before anything is
// read or written.
import { pathToFileURL } from "node:url";
import {
  type ApiKeyRecord,
  callerId,
  generateApiKey,
  hashApiKey,
  KNOWN_KEY_TTL_MS,
  KV_CACHE_TTL_S,
  SCOPES,
} from "../src/keys/api-key";
import { clock, type KeyCommand, parseKeyArguments } from "./lib/key-arguments";
import { keyTable, printable } from "./lib/key-list";
import { openStores, type Stores } from "./lib/stores";
import { describeTarget, type Target } from "./lib/target";

/**
 * How long after a change to a key's record every isolate acts on it: an isolate keeps a
 * record it read for KNOWN_KEY_TTL_MS, and a deployed KV serves one from its edge cache
 * for KV_CACHE_TTL_S more (src/keys/api-key.ts).
 */
const seenEverywhereAfterMs = (target: Target) => KNOWN_KEY_TTL_MS + (target.remote ? KV_CACHE_TTL_S * 1000 : 0);

/** KV's limit on a key's metadata, which holds the whole record. */
const METADATA_MAX_BYTES = 1024;

/** Throws, before anything is written, for a record that KV's metadata cannot hold. */
const checkFits = (record: ApiKeyRecord) => {
  const bytes = new TextEncoder().encode(JSON.stringify(record)).length;
  if (bytes > METADATA_MAX_BYTES) {
    throw new Error(`The key's record would take ${bytes} bytes, over KV's ${METADATA_MAX_BYTES}: shorten its label.`);
  }
};

// The record is also the metadata, so that `key:list` reads every record in one call.
const putRecord = (stores: Stores, hash: string, record: ApiKeyRecord) =>
  stores.keys.put(hash, JSON.stringify(record), record);

const readRecord = async (stores: Stores, hash: string): Promise<ApiKeyRecord | undefined> => {
  const found = await stores.keys.get(hash);
  return found === undefined ? undefined : (JSON.parse(found) as ApiKeyRecord);
};

/** A new key and its record: nothing is written yet. */
const newKey = (
  label: string,
  target: Target,
  limits: Pick<ApiKeyRecord, "scopes" | "expiresAt" | "keyId">,
  now: number,
): { key: string; record: ApiKeyRecord } => {
  // A key with both scopes is written like one from before scopes: older code reads it alike.
  const scopes = limits.scopes && limits.scopes.length < SCOPES.length ? limits.scopes : undefined;
  const record: ApiKeyRecord = {
    label,
    createdAt: new Date(now).toISOString(),
    ...(scopes && { scopes }),
    ...(limits.expiresAt && { expiresAt: limits.expiresAt }),
    ...(limits.keyId && { keyId: limits.keyId }),
  };
  checkFits(record);
  return { key: generateApiKey(target.env ?? "development"), record };
};

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

/**
 * After a failed write that followed the creation of `key`: removes the new key, so that
 * nothing changed, and throws saying so, or, if it cannot, which key to revoke.
 */
const undoCreate = async (stores: Stores, key: string, failure: string): Promise<never> => {
  const hash = await hashApiKey(key);
  try {
    await stores.keys.delete(hash);
  } catch {
    throw new Error(`Half done: ${failure}, and the new key with hash ${hash} could not be removed: revoke it.`);
  }
  throw new Error(`Nothing changed: ${failure}; the new key was removed.`);
};

const existingRecord = async (stores: Stores, hash: string, target: Target) => {
  const record = await readRecord(stores, hash);
  if (!record) throw new Error(`No key with hash ${hash} in ${describeTarget(target, "KV")}.`);
  return record;
};

/** What a command says on stderr, and what it prints on stdout (a new key is its last line). */
export type KeyOutcome = { said: string; printed: string[] };

const runKeyCommand = async (command: KeyCommand, target: Target, stores: Stores, now: number): Promise<KeyOutcome> => {
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
      // A new key with the old one's label, scopes and caller; the old one then expires
      // after the overlap (or sooner, if it already did), so that its clients can switch
      // without an outage. Both records are made, and checked, before the first write.
      const { hash, overlapMs, expiresAt } = command;
      const old = await existingRecord(stores, hash, target);
      if (old.rolledTo) {
        throw new Error(
          `The key with hash ${hash} was rolled already, to the key with hash ${old.rolledTo}: roll that one.`,
        );
      }
      const oldEnd = old.expiresAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(old.expiresAt);
      if (!(now < oldEnd)) throw new Error(`The key with hash ${hash} has expired already: create a new one instead.`);
      const keyId = callerId(old, hash);
      const { key, record } = newKey(old.label, target, { scopes: old.scopes, expiresAt, keyId }, now);
      const newHash = await hashApiKey(key);
      const oldExpiry = Math.min(oldEnd, now + overlapMs);
      const ending: ApiKeyRecord = { ...old, expiresAt: new Date(oldExpiry).toISOString(), rolledTo: newHash };
      checkFits(ending);
      await putRecord(stores, newHash, record);
      await putRecord(stores, hash, ending).catch((error: Error) =>
        undoCreate(stores, key, `the old key's expiry could not be written (${error.message})`),
      );
      const said = `Rolled the key: the old one stops working ${everywhereBy(oldExpiry)}; switch its clients to the new one, shown once, below:`;
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
  }
};

/**
 * Runs `npm run key:<command>` with `args` (the command first) at `now`: on the `stores`
 * given (tests keep theirs open), or on those of the target named, opened for the command.
 */
export const runKeys = async (args: string[], now = clock(), stores?: Stores): Promise<KeyOutcome> => {
  const { command, target } = await parseKeyArguments(args, now);
  const opened = stores ?? (await openStores(target));
  try {
    return await runKeyCommand(command, target, opened, now);
  } finally {
    if (!stores) await opened.close();
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runKeys(process.argv.slice(2)).then(
    ({ said, printed }) => {
      if (said) console.error(said);
      for (const line of printed) console.log(line);
    },
    (error: Error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
