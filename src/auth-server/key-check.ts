// The key that a sign-in gives, checked by the rules of the API's door (src/keys/): its
// shape and checksum, its record in the API's KV, its expiry and its scopes. Every attempt
// counts against the client's address first, on the API's own throttle of unknown keys.
import { addressOf } from "../keys/address-group";
import { type ApiKeyRecord, hasExpired, hashApiKey, isWellFormedApiKey, SCOPES, type Scope } from "../keys/api-key";
import type { AuthEnv } from "./env";

export type KeyVerdict =
  | { admitted: true; hash: string; record: ApiKeyRecord; scopes: Scope[] }
  | { admitted: false; status: 401 | 403 | 429; reason: string };

/** The key's record, read afresh: a sign-in or a refresh acts on a revoked key at once. */
export const readKey = (env: AuthEnv, hash: string) => env.API_KEYS.get<ApiKeyRecord>(hash, { type: "json" });

/** Whether the address may try another key; a limiter that fails lets it (as the API's does), and says so. */
const mayTry = async (env: AuthEnv, request: Request) => {
  try {
    return (await env.AUTH_FAILURE_LIMITER.limit({ key: addressOf(request) })).success;
  } catch (error) {
    console.error(
      JSON.stringify({ level: "error", message: "AUTH_FAILURE_LIMITER failed open", cause: String(error) }),
    );
    return true;
  }
};

/**
 * Whether `key` may grant `asked` (none asked: what the key may do), at `now`. The key
 * itself goes no further than this function: neither a log line nor a URL holds it.
 */
export const checkKey = async (
  env: AuthEnv,
  request: Request,
  key: string,
  asked: Scope[],
  now: number,
): Promise<KeyVerdict> => {
  if (!(await mayTry(env, request))) {
    return { admitted: false, status: 429, reason: "Too many sign-ins from this address; try again in a minute." };
  }
  const hash = isWellFormedApiKey(key) ? await hashApiKey(key) : undefined;
  const record = hash ? await readKey(env, hash) : null;
  if (!hash || !record) return { admitted: false, status: 401, reason: "That is not a valid API key." };
  if (hasExpired(record, now)) return { admitted: false, status: 401, reason: "That API key has expired." };
  const own = record.scopes ?? [...SCOPES];
  const beyond = asked.filter((scope) => !own.includes(scope));
  if (beyond.length > 0) {
    const names = beyond.map((scope) => `'${scope}'`).join(" and ");
    return {
      admitted: false,
      status: 403,
      reason: `That API key does not have the ${names} scope this app asks for; sign in with a key that has it.`,
    };
  }
  return { admitted: true, hash, record, scopes: asked.length > 0 ? asked : own };
};
