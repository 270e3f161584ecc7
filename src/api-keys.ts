// Shared by the Worker (to check keys) and by scripts/keys.ts (to issue them), so
// both agree on the format and on how a key is hashed.

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

/** SHA-256 of a text, in hex: how keys are stored, how request bodies are compared, the OpenAPI ETag. */
export const sha256Hex = async (text: string): Promise<string> => {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  // A plain loop: on every authenticated request, and Array.from(...).join cost more than the digest.
  let hex = "";
  for (const byte of new Uint8Array(digest)) hex += (byte < 16 ? "0" : "") + byte.toString(16);
  return hex;
};

export const hashApiKey = (key: string): Promise<string> => sha256Hex(key);
