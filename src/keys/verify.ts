// The one key check of every door: /v1, /mcp (a key, or the key an access token stands for)
// and the sign-in Worker (its form, and each code exchange and refresh). A function of the
// stores, the credential and the clock that returns a verdict; each door words the verdict
// for its own wire (src/http/api-key-auth.ts, src/auth-server/). One deadline on each KV
// read, one fault line, one negative cache, one throttle, whoever asks.

import { BoundedCache } from "../lib/bounded-cache";
import { type FaultContext, logDependencyFault, withDeadline } from "../lib/faults";
import { isWithinLimit, type Limiters } from "../lib/limiters";
import { addressOf } from "./address-group";
import {
  type ApiKeyRecord,
  hasExpired,
  hashApiKey,
  isWellFormedApiKey,
  KNOWN_KEY_TTL_MS,
  KV_CACHE_TTL_S,
} from "./api-key";

/** A key's record, and the key's hash: the caller's identity for rate limits and idempotency. */
export type AdmittedKey = ApiKeyRecord & { hash: string };

/** What the check reads: the API's KV of keys, and the throttle on unknown keys. */
type KeyStores = { API_KEYS: KVNamespace } & Limiters;

/**
 * Who asks. `from`: the client's request, whose address group every attempt with a key this
 * isolate does not know to be valid counts against (absent for the key of a grant, which no
 * one guesses; read only when an attempt is counted). `fresh`: read the record afresh, as a
 * sign-in and a refresh do, so that a revoked key is refused at once (no isolate cache, no
 * KV edge cache, no grace on a fault).
 */
export type KeyCheckContext = FaultContext & { from?: Request; fresh?: boolean };

export type KeyVerdict =
  | { admitted: true; key: AdmittedKey }
  | { admitted: false; refusal: "invalid" | "throttled" | "unavailable" }
  | { admitted: false; refusal: "expired"; expiresAt: string };

/**
 * Unknown keys are remembered briefly, so that a newly created key works within seconds.
 * A known key is trusted for KNOWN_KEY_TTL_MS (src/keys/api-key.ts).
 */
export const UNKNOWN_KEY_TTL_MS = 5_000;
/**
 * While KV fails, a key this isolate verified within this time keeps working (a
 * revocation made meanwhile takes effect once KV answers again); any other key gets 503.
 */
export const KV_FAULT_GRACE_MS = 10 * 60_000;
/** A KV read normally takes milliseconds; one that takes this long is failing. */
export const KV_READ_DEADLINE_MS = 3000;

// Apart, so that no flood of unknown keys can push a valid key out. Known keys are held
// with their hash, as each request is handed them: no copy per request.
const knownKeys = new BoundedCache<string, AdmittedKey>({ share: "knownKeys", ttlMs: KNOWN_KEY_TTL_MS });
const unknownKeys = new BoundedCache<string, true>({ share: "unknownKeys", ttlMs: UNKNOWN_KEY_TTL_MS });
// The key hash of a bearer credential this isolate verified lately: a key (its next requests
// skip the digest, an asynchronous call dearer than its arithmetic) or an access token (its
// next calls are not counted as unknown). Valid ones only, so a flood of others cannot fill
// it. The plain credential stays in memory, as in every request's header, never in storage.
const verifiedCredentials = new BoundedCache<string, string>({ share: "keyHashes", ttlMs: KNOWN_KEY_TTL_MS });

/**
 * Where a credential is held: a key as it is, an access token behind a space, which no bearer
 * token has, so that no token held here can ever pass for a key at /v1.
 */
const entryOf = (kind: "key" | "token", credential: string) => (kind === "key" ? credential : ` ${credential}`);
/** The key hash of a credential of `kind` this isolate verified lately, if it did. */
export const verifiedLately = (kind: "key" | "token", credential: string) =>
  verifiedCredentials.get(entryOf(kind, credential));
/** Notes a credential verified now, for verifiedLately. */
export const rememberVerified = (kind: "key" | "token", credential: string, keyHash: string) =>
  verifiedCredentials.set(entryOf(kind, credential), keyHash);

/**
 * Counts an attempt with a credential this isolate does not know to be valid against the
 * client's address, before any store is read: a client guessing gets "throttled" after
 * AUTH_FAILURE_LIMITER's allowance and costs at most that many reads per period.
 */
export const mayTryUnknown = (stores: Limiters, checkContext: KeyCheckContext) =>
  checkContext.from === undefined
    ? Promise.resolve(true)
    : isWithinLimit(stores, "AUTH_FAILURE_LIMITER", addressOf(checkContext.from), checkContext);

type Found = AdmittedKey | "unknown" | "throttled" | "unavailable";

/**
 * On a KV fault (KV answers null for a key it does not have, and throws when it fails:
 * only the first is a verdict on the key), a key this isolate verified lately is served
 * from its expired entry, which is not renewed; any other key is "unavailable", and
 * nothing is remembered of it. A fresh read has no grace.
 */
const duringKvFault = (hash: string, checkContext: KeyCheckContext, error: unknown): Found => {
  const lastVerified = checkContext.fresh ? undefined : knownKeys.getStale(hash, KV_FAULT_GRACE_MS - KNOWN_KEY_TTL_MS);
  logDependencyFault(checkContext, "KV", error, lastVerified ? "served a key verified lately" : "503");
  return lastVerified ?? "unavailable";
};

const lookUp = async (stores: KeyStores, hash: string, checkContext: KeyCheckContext): Promise<Found> => {
  const known = checkContext.fresh ? undefined : knownKeys.get(hash);
  if (known) return known;
  // A key that was valid a minute ago is re-read even from a throttled address, so
  // that someone else's flood from behind the same address cannot lock its client out.
  if (checkContext.fresh || !knownKeys.hasExpired(hash)) {
    if (!(await mayTryUnknown(stores, checkContext))) return "throttled";
    if (unknownKeys.get(hash)) return "unknown";
  }
  let record: ApiKeyRecord | null;
  try {
    const read = stores.API_KEYS.get<ApiKeyRecord>(hash, {
      type: "json",
      ...(!checkContext.fresh && { cacheTtl: KV_CACHE_TTL_S }),
    });
    record = await withDeadline(read, KV_READ_DEADLINE_MS, "KV");
  } catch (error) {
    return duringKvFault(hash, checkContext, error);
  }
  if (!record) {
    knownKeys.delete(hash);
    unknownKeys.set(hash, true);
    return "unknown";
  }
  const admitted = { ...record, hash };
  knownKeys.set(hash, admitted);
  unknownKeys.delete(hash);
  return admitted;
};

/**
 * The verdict on the key whose hash is `hash` at `now`: known to KV (through this isolate's
 * cache, KNOWN_KEY_TTL_MS, unless `fresh`), and unexpired, from its instant on, also while
 * this isolate still holds its record.
 */
export const verifyKeyHash = async (
  stores: KeyStores,
  hash: string,
  now: number,
  checkContext: KeyCheckContext,
): Promise<KeyVerdict> => {
  const found = await lookUp(stores, hash, checkContext);
  if (found === "unknown") return { admitted: false, refusal: "invalid" };
  if (found === "throttled" || found === "unavailable") return { admitted: false, refusal: found };
  if (hasExpired(found, now)) return { admitted: false, refusal: "expired", expiresAt: String(found.expiresAt) };
  return { admitted: true, key: found };
};

/**
 * The verdict on the key `token` at `now` (see verifyKeyHash). A token that cannot be one of
 * our keys (its shape, or its checksum) is refused without a KV read or a limiter call; a
 * key this isolate verified has both, so only another is checked.
 */
export const verifyKey = async (
  stores: KeyStores,
  token: string,
  now: number,
  checkContext: KeyCheckContext,
): Promise<KeyVerdict> => {
  const knownHash = checkContext.fresh ? undefined : verifiedLately("key", token);
  if (!knownHash && !isWellFormedApiKey(token)) return { admitted: false, refusal: "invalid" };
  const hash = knownHash ?? (await hashApiKey(token));
  const verdict = await verifyKeyHash(stores, hash, now, checkContext);
  if (verdict.admitted && !knownHash) rememberVerified("key", token, hash);
  return verdict;
};
