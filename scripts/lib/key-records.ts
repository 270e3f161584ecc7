// A key's record in KV: how it is read and written, checked before the first write, and a
// new key's removal when a later write fails (scripts/keys.ts and ./key-roll.ts use them).
import {
  type ApiKeyRecord,
  generateApiKey,
  hashApiKey,
  KNOWN_KEY_TTL_MS,
  KV_CACHE_TTL_S,
  SCOPES,
} from "../../src/keys/api-key";
import type { Stores } from "./stores";
import { describeTarget, type Target } from "./target";

/**
 * How long after a change to a key's record every isolate acts on it: an isolate keeps a
 * record it read for KNOWN_KEY_TTL_MS, and a deployed KV serves one from its edge cache
 * for KV_CACHE_TTL_S more (src/keys/api-key.ts).
 */
export const seenEverywhereAfterMs = (target: Target) => KNOWN_KEY_TTL_MS + (target.remote ? KV_CACHE_TTL_S * 1000 : 0);

/** KV's limit on a key's metadata, which holds the whole record. */
const METADATA_MAX_BYTES = 1024;

/** Throws, before anything is written, for a record that KV's metadata cannot hold. */
export const checkFits = (record: ApiKeyRecord) => {
  const bytes = new TextEncoder().encode(JSON.stringify(record)).length;
  if (bytes > METADATA_MAX_BYTES) {
    throw new Error(`The key's record would take ${bytes} bytes, over KV's ${METADATA_MAX_BYTES}: shorten its label.`);
  }
};

// The record is also the metadata, so that `key:list` reads every record in one call.
export const putRecord = (stores: Stores, hash: string, record: ApiKeyRecord) =>
  stores.keys.put(hash, JSON.stringify(record), record);

export const readRecord = async (stores: Stores, hash: string): Promise<ApiKeyRecord | undefined> => {
  const found = await stores.keys.get(hash);
  return found === undefined ? undefined : (JSON.parse(found) as ApiKeyRecord);
};

/** A new key and its record: nothing is written yet. */
export const newKey = (
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

/**
 * After a failed write that followed the creation of `key`: removes the new key, so that
 * nothing changed, and throws saying so, or, if it cannot, which key to revoke.
 */
export const undoCreate = async (stores: Stores, key: string, failure: string): Promise<never> => {
  const hash = await hashApiKey(key);
  try {
    await stores.keys.delete(hash);
  } catch {
    throw new Error(`Half done: ${failure}, and the new key with hash ${hash} could not be removed: revoke it.`);
  }
  throw new Error(`Nothing changed: ${failure}; the new key was removed.`);
};

export const existingRecord = async (stores: Stores, hash: string, target: Target) => {
  const record = await readRecord(stores, hash);
  if (!record) throw new Error(`No key with hash ${hash} in ${describeTarget(target, "KV")}.`);
  return record;
};
