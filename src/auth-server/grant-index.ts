// Which grants a key made. Every token the library issues begins with its grant's user id,
// so each sign-in gets a user id of its own, random: no token says which key it came from,
// and two apps signed in with one key cannot tell so by their tokens. `npm run key:grants`
// finds a key's grants through this index, kept in OAUTH_KV beside them:
// key-grants:<key hash>:<user id>, written before the grant, so that no grant lacks one.
// An entry whose grant has gone (expired, revoked) is passed over.
// Free of the library, so that scripts/lib/key-grants.ts can read it in Node.

export const GRANT_INDEX_PREFIX = "key-grants:";

/** A new sign-in's user id: a random UUID's 122 random bits, in hex. */
export const newGrantUser = () => crypto.randomUUID().replaceAll("-", "");

/** Records that the sign-in of user id `userId` was made with the key of hash `keyHash`, for as long as its grant may live. */
export const indexGrant = (kv: KVNamespace, keyHash: string, userId: string, lifetimeS: number) =>
  kv.put(`${GRANT_INDEX_PREFIX}${keyHash}:${userId}`, "", { expirationTtl: lifetimeS });
