// Shared by the Worker (to check keys) and by scripts/keys.ts (to issue them), so
// both agree on the format and on how a key is hashed.
import { sha256Hex } from "./sha256";

/** What KV holds for a key, under the key's SHA-256. The key itself is never stored. */
export type ApiKeyRecord = { label: string; createdAt: string };

// A recognisable prefix lets secret scanners find leaked keys; the environment
// part tells at a glance whether a leaked key reaches production.
const PREFIX = { live: "ps_live_", test: "ps_test_" } as const;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARACTERS = 43; // 43 base-62 characters carry 256 bits.

export const API_KEY_PATTERN = /^ps_(live|test)_[0-9A-Za-z]{43}$/;

export const generateApiKey = (environment: string): string => {
  const prefix = environment === "production" ? PREFIX.live : PREFIX.test;
  let random = "";
  while (random.length < RANDOM_CHARACTERS) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      // Rejection sampling keeps every character equally likely (248 = 4 * 62).
      if (byte < 248 && random.length < RANDOM_CHARACTERS) random += ALPHABET[byte % 62];
    }
  }
  return prefix + random;
};

/** The name a key is stored under in KV. */
export const hashApiKey = (key: string): Promise<string> => sha256Hex(key);
