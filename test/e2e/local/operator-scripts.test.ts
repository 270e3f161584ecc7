import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runApps } from "../../../scripts/apps";
import { createKey, runKeys } from "../../../scripts/keys";
import { appTable, removeApp } from "../../../scripts/lib/app-registrations";
import { startDevServer } from "../../../scripts/lib/dev-server";
import { openGrantStore } from "../../../scripts/lib/grant-store";
import { grantTable, revokeGrants } from "../../../scripts/lib/key-grants";
import { applyLocalMigrations } from "../../../scripts/lib/local-migrations";
import { openLocalStores } from "../../../scripts/lib/stores";
import { runUsage } from "../../../scripts/usage";
import { hashApiKey } from "../../../src/keys/api-key";
import { createPetThrough } from "../../helpers/api-client";
import { backupTests } from "../helpers/backup-tests";
import { api } from "../helpers/client";
import { keyRollFaultTests } from "../helpers/key-roll-fault-tests";
import { keyRollTests } from "../helpers/key-roll-tests";
import { keyScriptTests, type ScratchState } from "../helpers/key-script-tests";
import { peekDatabase } from "../helpers/lock-store";
import { HOST_NAME } from "../helpers/oauth-host";
import {
  exchangeCode,
  listPetsWith,
  pkce,
  registerClient,
  signInOverHttp,
  tokenRequest,
} from "../helpers/sign-in-over-http";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/api.md: one batch under a 5 s deadline */
const FLUSH_DEADLINE_MS = 5_000;
/** docs/api.md: an isolate writes at most once per 10 s */
const FLUSH_INTERVAL_MS = 10_000;

// The operator scripts that read and write the state of a local server, against one
// scratch `wrangler dev` that serves what they write: the key scripts, the report of
// deprecated calls, backup and restore. Its state is prepared as `npm run dev` prepares
// it, in this process (test/e2e/local/outages.test.ts starts `npm run dev` itself). One
// test at a time: while another process writes the local KV store, the server's reads of
// it fail (as test/e2e/local/outages.test.ts makes them fail on purpose).

const KEY_LABEL = "operator";
const persistTo = mkdtempSync(path.join(tmpdir(), "petstore-operator-scripts-"));
const state = {} as ScratchState;
beforeAll(async () => {
  const target = { remote: false, persistTo };
  const stores = await openLocalStores(target);
  state.stores = stores;
  await applyLocalMigrations(stores.database);
  state.key = await createKey(KEY_LABEL, target, stores);
  state.server = await startDevServer({ name: "the operator scripts tests", command: "wrangler dev", persistTo });
});
afterAll(async () => {
  await state.stores?.close();
  await state.server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
});

describe("the key scripts", () => keyScriptTests(state));
describe("the key scripts' limits, and rolled keys", () => keyRollTests(state));
describe("a key roll whose write fails", () => keyRollFaultTests(state));

// An isolate writes its first counts at once and later ones at most once per FLUSH_INTERVAL_MS.
it("usage:deprecated shows the getPet calls under the caller's key label", async () => {
  const onServer = { origin: state.server.origin, key: state.key };
  const { id } = await createPetThrough(api, { name: "Reported Rex", categoryId: 1 }, onServer);
  expect((await api(`/v1/pets/${id}`, onServer)).status).toBe(200);
  // Watched as a plain reader: a query through the stores could fail the write it waits for.
  const recorded = () =>
    peekDatabase<{ calls: number }>(state.server.persistTo, "select sum(calls) as calls from deprecated_calls")[0]
      ?.calls;
  await expect.poll(recorded, { timeout: FLUSH_INTERVAL_MS + FLUSH_DEADLINE_MS, interval: 250 }).toBe(1);
  const { printed } = await runUsage(["--persist-to", state.server.persistTo, "--days", "1"]);
  expect(printed.join("\n")).toMatch(/^operator +[0-9a-f]{12}… +getPet +1 +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
});

describe("backup and restore", () => backupTests(state));

it("key:grants lists the grants that signing in with a key made, and revokes them; a failed write is said, and undone by running it again", async () => {
  const { origin } = state.server;
  // A callback that nobody serves: the sign-in's redirect is read, not followed.
  const redirectUri = "http://127.0.0.1:9/callback";
  const clientId = await registerClient(origin, redirectUri);
  const { verifier, challenge } = pkce();
  const authorization = { clientId, redirectUri, challenge, scope: "read" };
  const { answer } = await signInOverHttp(origin, authorization, state.key);
  // A refusal says why, and the server's output what failed.
  if (answer?.status !== 302) expect.fail(`${answer?.status} ${await answer?.text()}\n${state.server.output()}`);
  // Through the command's entry point in this process (test/node/scripts/commands.test.ts runs
  // it as its process), and on one store where a write is made to fail.
  const grants = (...more: string[]) => runKeys(["grants", state.key, ...more, "--persist-to", persistTo]);
  const hash = await hashApiKey(state.key);
  // The app as the page named it, and a code not yet exchanged said to be one, ending in 10 minutes.
  const appAndScope = new RegExp(`^(\\S+) +${HOST_NAME} \\(${clientId}\\) +read +(\\S+) +(.+)$`);
  const [, , granted = "", pending = ""] = appAndScope.exec((await grants()).printed[1] ?? "") ?? [];
  expect(pending).toBe(`${new Date(Date.parse(granted) + 600_000).toISOString()} (code not exchanged)`);
  const exchanged = await exchangeCode(origin, answer?.headers.get("Location") ?? "", authorization, verifier);
  const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
  expect((await listPetsWith(origin, tokens.access_token)).status).toBe(200);

  const listed = await grants();
  expect(listed.said).toContain("has 1 grant.");
  const [header, row = ""] = listed.printed;
  expect(header).toMatch(/^grant\s+app \(client id\)\s+scopes\s+granted\s+expires$/);
  const [, grantId = "", , expires = ""] = appAndScope.exec(row) ?? [];
  expect(expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  // Refused before any write: a grant the key does not have, and what cannot be a grant id.
  await expect(grants("--revoke", "nosuchgrant")).rejects.toThrow("has no grant nosuchgrant: nothing was revoked");
  await expect(grants("--revoke", "no/such")).rejects.toThrow("--revoke takes a grant id");

  // The grant's own record cannot be deleted: its tokens are gone, it is still listed, and said so.
  const store = await openGrantStore({ remote: false, persistTo });
  try {
    const failing = {
      ...store,
      delete: async (name: string) => {
        if (name.startsWith("grant:")) throw new Error("KV put failed: injected");
        await store.delete(name);
      },
    };
    await expect(revokeGrants(failing, hash, grantId)).rejects.toThrow(
      `Revoked no grant; grant ${grantId} and any after it are still in place (some of its tokens may be gone): run the command again.`,
    );
    expect((await grantTable(store, hash)).said).toContain("has 1 grant.");
    expect((await revokeGrants(store, hash, "all")).said).toContain(
      `Revoked 1 grant of the key with hash ${hash} (${grantId})`,
    );
    expect((await grantTable(store, hash)).said).toContain("has 0 grants.");
  } finally {
    await store.close();
  }
  expect((await listPetsWith(origin, tokens.access_token)).status).toBe(401);
  const refresh = await tokenRequest(origin, {
    grant_type: "refresh_token",
    refresh_token: tokens.refresh_token,
    client_id: clientId,
  });
  expect(refresh.status).toBe(400);
});

it("apps lists the registered apps and removes one, which ends its refreshes at once; a failed write is said", async () => {
  const { origin } = state.server;
  const redirectUri = "http://127.0.0.1:9/callback";
  const clientId = await registerClient(origin, redirectUri, "App to remove");
  const { verifier, challenge } = pkce();
  const authorization = { clientId, redirectUri, challenge, scope: "read" };
  const { answer } = await signInOverHttp(origin, authorization, state.key);
  const exchanged = await exchangeCode(origin, answer?.headers.get("Location") ?? "", authorization, verifier);
  const tokens = (await exchanged.json()) as { refresh_token: string };

  // Through the command's entry point in this process, then on one store.
  const listed = await runApps(["--persist-to", persistTo]);
  expect(listed.printed[0]).toMatch(/^client id\s+name\s+redirect URIs\s+expires$/);
  expect(listed.printed.join("\n")).toMatch(
    new RegExp(`^${clientId} +App to remove +${redirectUri} +\\d{4}-\\d\\d-\\d\\dT`, "m"),
  );
  // A stranger's long name is shown cut at 64 characters, as the sign-in page shows it: no column grows past it.
  const longNamed = await registerClient(origin, redirectUri, "n".repeat(5000));
  const row = (await runApps(["--persist-to", persistTo])).printed.find((line) => line.startsWith(longNamed)) ?? "";
  expect(row).toContain(`${"n".repeat(64)}…`);
  expect(row).not.toContain("n".repeat(65));

  // Refused before any write: what cannot be a client id, and an app that is not registered.
  await expect(runApps(["--remove", "no/such", "--persist-to", persistTo])).rejects.toThrow(
    "--remove takes a client id",
  );
  const store = await openGrantStore({ remote: false, persistTo });
  try {
    await expect(removeApp(store, "nosuchapp")).rejects.toThrow(
      "No app is registered as nosuchapp: nothing was removed",
    );
    // Its one write fails: said, and the app still listed.
    const failing = {
      ...store,
      delete: async () => {
        throw new Error("KV delete failed: injected");
      },
    };
    await expect(removeApp(failing, clientId)).rejects.toThrow(
      `The app ${clientId} is still registered: run the command again.`,
    );
    expect((await appTable(store)).printed.join("\n")).toContain(clientId);

    expect((await removeApp(store, clientId)).said).toContain(`Removed the app ${clientId}`);
    expect((await appTable(store)).printed.join("\n")).not.toContain(clientId);
  } finally {
    await store.close();
  }
  const refresh = await tokenRequest(origin, {
    grant_type: "refresh_token",
    refresh_token: tokens.refresh_token,
    client_id: clientId,
  });
  expect(refresh.status).toBe(401);
});
