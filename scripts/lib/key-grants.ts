// `npm run key:grants`: the access that apps (agents' hosts) were granted by signing in with
// a key (src/auth-server/), as the sign-in Worker keeps it in OAUTH_KV: each grant under
// grant:<user id>:<grant id>, and its tokens, only as hashes, under token:<user id>:<grant id>:,
// where each sign-in has a user id of its own, found from the key through the index
// key-grants:<key hash>:<user id> (src/auth-server/grant-index.ts); a grant made before the
// index has the key's hash for its user id. Revoking a grant deletes its tokens, then the
// grant, as the library's own revokeGrant does, then its index entry: until the grant itself
// is gone it can still be revoked again.
import { GRANT_INDEX_PREFIX } from "../../src/auth-server/grant-index";
import type { GrantStore } from "./grant-store";
import { cell, table } from "./key-list";

/** A grant id as the library makes them; `all` names every grant of the key. */
export const GRANT_ID = /^[A-Za-z0-9_-]{1,128}$/;

type GrantRecord = {
  id?: unknown;
  clientId?: unknown;
  scope?: unknown;
  createdAt?: unknown;
  expiresAt?: unknown;
  /** Present until the grant's code is exchanged for tokens. */
  authCodeWrappedKey?: unknown;
};

/** How long the library keeps a grant whose code was never exchanged: its record expires then. */
const UNEXCHANGED_CODE_TTL_S = 600;

type Grant = { name: string; id: string; userId: string; index?: string; record: GrantRecord };

const grantsOf = async (store: GrantStore, hash: string) => {
  const indexed = (await store.list(`${GRANT_INDEX_PREFIX}${hash}:`)).map((index) => ({
    index,
    userId: index.slice(`${GRANT_INDEX_PREFIX}${hash}:`.length),
  }));
  const grants: Grant[] = [];
  for (const { userId, index } of [{ userId: hash, index: undefined }, ...indexed]) {
    for (const name of await store.list(`grant:${userId}:`)) {
      const text = await store.get(name);
      if (text === undefined) continue; // gone since the listing: an expiry, or another revoke
      const id = name.slice(`grant:${userId}:`.length);
      grants.push({ name, id, userId, ...(index && { index }), record: JSON.parse(text) as GrantRecord });
    }
  }
  return grants;
};

/** Seconds since the epoch, as the library keeps its instants, in ISO 8601. */
const instant = (seconds: unknown) =>
  typeof seconds === "number" ? new Date(seconds * 1000).toISOString() : undefined;

/** The app as the sign-in page named it (its registration's name), with its client id; the id alone when it has no registration (a metadata document's URL). */
const appOf = async (store: GrantStore, clientId: unknown) => {
  if (typeof clientId !== "string") return "?";
  const registration = await store.get(`client:${clientId}`);
  const name =
    registration === undefined ? undefined : (JSON.parse(registration) as { clientName?: unknown }).clientName;
  return typeof name === "string" && name.trim() ? `${cell(name, "?")} (${cell(clientId, "?")})` : cell(clientId, "?");
};

/** When a grant ends: its refresh token's expiry; for a code never exchanged, the code's end, said so. */
const endOf = (record: GrantRecord) => {
  if (record.authCodeWrappedKey === undefined) return cell(instant(record.expiresAt), "never");
  const created = typeof record.createdAt === "number" ? record.createdAt : undefined;
  return `${cell(instant(created === undefined ? undefined : created + UNEXCHANGED_CODE_TTL_S), "?")} (code not exchanged)`;
};

/** The table of the key's grants: which app, for which scopes, since and until when. */
export const grantTable = async (store: GrantStore, hash: string) => {
  const grants = await grantsOf(store, hash);
  const rows: string[][] = [];
  for (const { id, record } of grants) {
    rows.push([
      cell(id, "?"),
      await appOf(store, record.clientId),
      cell(record.scope, ""),
      cell(instant(record.createdAt), "?"),
      endOf(record),
    ]);
  }
  const said = `The key with hash ${hash} has ${grants.length} grant${grants.length === 1 ? "" : "s"}.`;
  return {
    said,
    printed: grants.length > 0 ? table([["grant", "app (client id)", "scopes", "granted", "expires"], ...rows]) : [],
  };
};

/**
 * Revokes the key's grant `which` (or `all`), each whole or not at all: a grant is listed,
 * and usable, until its own record goes, last. A failure says what was revoked and what was not.
 */
export const revokeGrants = async (store: GrantStore, hash: string, which: string) => {
  const grants = await grantsOf(store, hash);
  const chosen = which === "all" ? grants : grants.filter(({ id }) => id === which);
  if (which !== "all" && chosen.length === 0) {
    throw new Error(`The key with hash ${hash} has no grant ${which}: nothing was revoked (key:grants lists them).`);
  }
  const revoked: string[] = [];
  for (const { name, id, userId, index } of chosen) {
    try {
      for (const token of await store.list(`token:${userId}:${id}:`)) await store.delete(token);
      await store.delete(name);
    } catch (error) {
      throw new Error(
        `Revoked ${revoked.length > 0 ? revoked.join(", ") : "no grant"}; grant ${id} and any after it are still in place (some of its tokens may be gone): run the command again.\n${(error as Error).message}`,
      );
    }
    revoked.push(id);
    // The grant is gone: an index entry left behind is passed over, and expires with its time.
    if (index) await store.delete(index).catch(() => undefined);
  }
  return {
    said: `Revoked ${revoked.length} grant${revoked.length === 1 ? "" : "s"} of the key with hash ${hash}${revoked.length > 0 ? ` (${revoked.join(", ")})` : ""}: their access and refresh tokens stop working at once.`,
    printed: [],
  };
};
