// `npm run key:roll`: a new key with the old one's label, scopes and caller; the old one
// then expires after the overlap (or sooner, if it already did), so that its clients can
// switch without an outage. Both records are made, and checked, before the first write.
//
// KV has no compare-and-swap, so two rolls of one key at once could each write a successor.
// A roll therefore writes its new key, checks that no other roll has claimed the old one
// since it read it, claims it (the old record's rolledTo), waits for any other claim made
// meanwhile to land, and reads the claim back: the roll whose claim stands keeps its key;
// any other removes its own new key and says which key won. Two claims can only both stand
// if one was written after the other's read-back, which the wait rules out: a claim comes
// right after its roll's check, and that check saw no claim.
import { type ApiKeyRecord, callerId, hashApiKey } from "../../src/keys/api-key";
import type { KeyCommand } from "./key-arguments";
import { checkFits, existingRecord, newKey, putRecord, readRecord, undoCreate } from "./key-records";
import type { Stores } from "./stores";
import type { Target } from "./target";

type Roll = Extract<KeyCommand, { name: "roll" }>;

/**
 * How long a roll waits for another roll's claim to land. Two claims both stand only if one
 * roll took longer than this between its check and its claim (one KV write): a local write
 * takes milliseconds, a remote one through wrangler seconds.
 */
export const claimSettleMs = (target: Target) => (target.remote ? 10_000 : 1_000);

/** Waits `ms` for other rolls' claims to land: the clock's own time, or a test's stand-in for it. */
export type ClaimWait = (ms: number) => Promise<void>;

const sleep: ClaimWait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The successor's expiry, and why: --expires when given; else the old key's lifetime
 * (created to expiry) from now, so that a key made to live 30 days is followed by one
 * that lives 30 days; else none, as the old key had none.
 */
const successorExpiry = (old: ApiKeyRecord, expiresAt: string | undefined, overlapMs: number, now: number) => {
  if (expiresAt !== undefined) return { expiresAt, why: "--expires" };
  if (old.expiresAt === undefined) return { expiresAt: undefined, why: "as the old key" };
  const lifetimeMs = Date.parse(old.expiresAt) - Date.parse(old.createdAt);
  if (Number.isNaN(lifetimeMs)) {
    throw new Error(
      `The old key's record gives no lifetime that can be read (created ${old.createdAt}, expiring ${old.expiresAt}): pass --expires.`,
    );
  }
  if (!(lifetimeMs > overlapMs)) {
    throw new Error(
      `The old key's lifetime (created ${old.createdAt}, expiring ${old.expiresAt}) is not longer than the overlap, so its successor would expire first: pass --expires, or a shorter --overlap.`,
    );
  }
  const days = Math.round((lifetimeMs / DAY_MS) * 100) / 100;
  return { expiresAt: new Date(now + lifetimeMs).toISOString(), why: `the old key's lifetime, ${days} days, from now` };
};

/** Rolls the key; returns the new key, its expiry and why, and the instant the old one stops working. */
export const rollKey = async (
  { hash, overlapMs, expiresAt }: Roll,
  target: Target,
  stores: Stores,
  now: number,
  waitForClaims = sleep,
) => {
  const old = await existingRecord(stores, hash, target);
  const rolledAlready = (rolledTo: string) =>
    `The key with hash ${hash} was rolled already, to the key with hash ${rolledTo}: roll that one.`;
  if (old.rolledTo) throw new Error(rolledAlready(old.rolledTo));
  const oldEnd = old.expiresAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(old.expiresAt);
  if (!(now < oldEnd)) throw new Error(`The key with hash ${hash} has expired already: create a new one instead.`);
  const keyId = callerId(old, hash);
  const successor = successorExpiry(old, expiresAt, overlapMs, now);
  const { key, record } = newKey(old.label, target, { scopes: old.scopes, expiresAt: successor.expiresAt, keyId }, now);
  const newHash = await hashApiKey(key);
  const oldExpiry = Math.min(oldEnd, now + overlapMs);
  const ending: ApiKeyRecord = { ...old, expiresAt: new Date(oldExpiry).toISOString(), rolledTo: newHash };
  checkFits(ending);
  await putRecord(stores, newHash, record);
  /** The claim on the old key another roll made, if any: this roll then undoes itself. */
  const lostTo = async () => {
    const claimed = (await readRecord(stores, hash))?.rolledTo;
    return claimed !== undefined && claimed !== newHash ? claimed : undefined;
  };
  const before = await lostTo();
  if (before) return undoCreate(stores, key, `another key:roll of this key finished first. ${rolledAlready(before)}`);
  await putRecord(stores, hash, ending).catch((error: Error) =>
    undoCreate(stores, key, `the old key's expiry could not be written (${error.message})`),
  );
  await waitForClaims(claimSettleMs(target));
  // Unread, the claim may have been lost: the roll is undone, its new key never shown.
  const after = await lostTo().catch(async (error: Error) => {
    const failure = `the old key could not be read back (${error.message})`;
    await putRecord(stores, hash, old).catch(() => {
      throw new Error(
        `Half done: ${failure}, nor its record put back: it expires at ${ending.expiresAt}. Revoke the key with hash ${newHash}, and roll the old key again.`,
      );
    });
    return undoCreate(stores, key, `${failure}; its record was put back`);
  });
  if (after) {
    return undoCreate(
      stores,
      key,
      `another key:roll of this key ran at the same time, and its key (hash ${after}) is the successor: use that one`,
    );
  }
  return { key, oldExpiry, successor };
};
