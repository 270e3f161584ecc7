// `npm run key:roll`: a new key with the old one's label, scopes and caller; the old one
// then expires after the overlap (or sooner, if it already did), so that its clients can
// switch without an outage. Both records are made, and checked, before the first write.
import { type ApiKeyRecord, callerId, hashApiKey } from "../../src/keys/api-key";
import type { KeyCommand } from "./key-arguments";
import { checkFits, existingRecord, newKey, putRecord, undoCreate } from "./key-records";
import type { Stores } from "./stores";
import type { Target } from "./target";

type Roll = Extract<KeyCommand, { name: "roll" }>;

/** Rolls the key; returns the new key and the instant the old one stops working. */
export const rollKey = async ({ hash, overlapMs, expiresAt }: Roll, target: Target, stores: Stores, now: number) => {
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
  return { key, oldExpiry };
};
