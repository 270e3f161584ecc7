// Shared by the Worker (to check keys) and by scripts/keys.ts (to issue them), so
// both agree on the format, the record and how a key is hashed.
import { sha256Hex } from "../lib/sha256";

/**
 * How long an isolate trusts a key's record it read. KV itself is eventually consistent
 * for about 60 s, so caching a known key that long adds no new staleness class; a
 * changed or revoked key is acted on at most KNOWN_KEY_TTL_MS (isolate) + KV_CACHE_TTL_S
 * (KV's edge cache) after the change. Here rather than in src/http/api-key-auth.ts, so that
 * scripts/keys.ts can say so without loading the Worker's modules.
 */
export const KNOWN_KEY_TTL_MS = 60_000;
/** How long KV's edge cache keeps a record it read (deployed only: wrangler dev has none). */
export const KV_CACHE_TTL_S = 60;

/** What a key may do: `read` lists and fetches pets, `write` creates them. */
export const SCOPES = ["read", "write"] as const;
export type Scope = (typeof SCOPES)[number];
export const isScope = (name: string): name is Scope => (SCOPES as readonly string[]).includes(name);

/**
 * What KV holds for a key, under the key's SHA-256 (the key itself is never stored).
 * Records written before scopes and expiry existed have neither: such a key has every
 * scope and never expires, and code of either age reads records of the other.
 */
export type ApiKeyRecord = {
  label: string;
  createdAt: string;
  /** Absent: every scope. */
  scopes?: Scope[];
  /** An ISO instant; absent: never. */
  expiresAt?: string;
  /**
   * The caller a key belongs to across rolls: the hash of the first key, which every key
   * rolled from it carries (scripts/keys.ts). Idempotency records are kept under it, so a
   * create retried with the new key replays the one made with the old. Absent: the hash.
   */
  keyId?: string;
  /** The hash of the key this one was rolled to: a key is rolled once. */
  rolledTo?: string;
};

/** Under what a key's idempotency records are kept: its caller's, whichever key of a roll it is. */
export const callerId = (record: ApiKeyRecord, hash: string) => record.keyId ?? hash;

export const hasScope = (record: ApiKeyRecord, scope: Scope) => record.scopes?.includes(scope) ?? true;

/** Whether the key has expired at `now` (Unix milliseconds): from the instant itself on. */
export const hasExpired = (record: ApiKeyRecord, now: number) =>
  record.expiresAt !== undefined && !(now < Date.parse(record.expiresAt));

// A recognisable prefix lets secret scanners find leaked keys; the environment
// part tells at a glance whether a leaked key reaches production.
const PREFIX = { live: "ps_live_", test: "ps_test_" } as const;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARACTERS = 43; // 43 base-62 characters carry 256 bits.
const CHECKSUM_CHARACTERS = 6; // 62^6 > 2^32: a CRC32 fits.

/**
 * A key: the prefix, 43 random base-62 characters and, since keys got a checksum, the
 * CRC32 of everything before it in 6 base-62 characters. Keys issued before have no
 * checksum (51 characters in all rather than 57) and keep working.
 */
export const API_KEY_PATTERN = /^ps_(live|test)_[0-9A-Za-z]{43}(?:[0-9A-Za-z]{6})?$/;
const CHECKSUMMED_LENGTH = PREFIX.live.length + RANDOM_CHARACTERS + CHECKSUM_CHARACTERS;

/** Whether a bearer credential is meant as one of our keys (by its prefix, which is ours), rather than an access token. */
export const isApiKeyCredential = (token: string) => token.startsWith(PREFIX.live) || token.startsWith(PREFIX.test);

let crcTable: Uint32Array | undefined;
/** CRC-32 (IEEE 802.3, as zlib computes it) of an ASCII text. */
const crc32 = (text: string): number => {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, byte) => {
    let value = byte;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    return value;
  });
  let crc = 0xffffffff;
  for (let index = 0; index < text.length; index++) {
    crc = (crcTable[(crc ^ text.charCodeAt(index)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
};

/** The checksum of a key's prefix and random part: its CRC32 in base 62, left-padded with 0 to 6 characters. */
export const checksumOf = (body: string): string => {
  let value = crc32(body);
  let digits = "";
  for (let index = 0; index < CHECKSUM_CHARACTERS; index++) {
    digits = ALPHABET[value % 62] + digits;
    value = Math.floor(value / 62);
  }
  return digits;
};

/**
 * Whether a token can be a key we issued, offline: the shape, and for a key with a
 * checksum, the checksum. A typo or a guess is told apart without a lookup.
 */
export const isWellFormedApiKey = (token: string): boolean => {
  if (!API_KEY_PATTERN.test(token)) return false;
  if (token.length !== CHECKSUMMED_LENGTH) return true; // issued before keys had a checksum
  const body = token.slice(0, -CHECKSUM_CHARACTERS);
  return checksumOf(body) === token.slice(-CHECKSUM_CHARACTERS);
};

export const generateApiKey = (environment: string): string => {
  const prefix = environment === "production" ? PREFIX.live : PREFIX.test;
  let random = "";
  while (random.length < RANDOM_CHARACTERS) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      // Rejection sampling keeps every character equally likely (248 = 4 * 62).
      if (byte < 248 && random.length < RANDOM_CHARACTERS) random += ALPHABET[byte % 62];
    }
  }
  return prefix + random + checksumOf(prefix + random);
};

/** The name a key is stored under in KV. */
export const hashApiKey = (key: string): Promise<string> => sha256Hex(key);
