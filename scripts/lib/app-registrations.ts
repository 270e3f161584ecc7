// `npm run apps`: the apps (agents' hosts) that registered themselves with the sign-in Worker
// (RFC 7591), as it keeps them in OAUTH_KV under client:<client id>, and their removal. An
// app whose client id is the address of its metadata document has no registration here: it
// is read afresh at each sign-in. Removing a registration ends the app's refreshes and
// sign-ins at once (the token endpoint no longer knows the client) and its access tokens
// when they expire, within 15 minutes; `npm run key:grants -- --revoke` ends a grant's at once.
import { shownAppName } from "../../src/auth-server/client-metadata";
import type { GrantStore } from "./grant-store";
import { cell, table } from "./key-list";

/** A client id as the library makes them (no metadata document's URL: those are not registered here). */
export const CLIENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

const PREFIX = "client:";

type Registration = { clientName?: unknown; redirectUris?: unknown; registrationExpiresAt?: unknown };

/** Seconds since the epoch, as the library keeps its instants, in ISO 8601. */
const instant = (seconds: unknown) =>
  typeof seconds === "number" ? new Date(seconds * 1000).toISOString() : undefined;

/** The table of the registered apps: each one's client id, name as its page shows it, redirect URIs and end. */
export const appTable = async (store: GrantStore) => {
  const rows: string[][] = [];
  for (const name of await store.list(PREFIX)) {
    const text = await store.get(name);
    if (text === undefined) continue; // gone since the listing: an expiry, or a removal
    const app = JSON.parse(text) as Registration;
    rows.push([
      cell(name.slice(PREFIX.length), "?"),
      cell(typeof app.clientName === "string" ? shownAppName(app.clientName) : app.clientName, "(no name)"),
      cell(app.redirectUris, ""),
      cell(instant(app.registrationExpiresAt), "never"),
    ]);
  }
  return {
    said: `${rows.length} app${rows.length === 1 ? " is" : "s are"} registered.`,
    printed: rows.length > 0 ? table([["client id", "name", "redirect URIs", "expires"], ...rows]) : [],
  };
};

/** Removes the app `clientId`'s registration: one write, done or not. */
export const removeApp = async (store: GrantStore, clientId: string) => {
  const name = `${PREFIX}${clientId}`;
  if ((await store.get(name)) === undefined) {
    throw new Error(`No app is registered as ${clientId}: nothing was removed (npm run apps lists them).`);
  }
  try {
    await store.delete(name);
  } catch (error) {
    throw new Error(`The app ${clientId} is still registered: run the command again.\n${(error as Error).message}`);
  }
  return {
    said: `Removed the app ${clientId}: its refreshes and sign-ins are refused now, its access tokens when they expire (within 15 minutes).`,
    printed: [],
  };
};
