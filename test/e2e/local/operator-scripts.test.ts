import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../../scripts/keys";
import { startDevServer } from "../../../scripts/lib/dev-server";
import { applyLocalMigrations } from "../../../scripts/lib/local-migrations";
import { openLocalStores } from "../../../scripts/lib/stores";
import { createPetThrough } from "../../helpers/api-client";
import { backupTests } from "../helpers/backup-tests";
import { api } from "../helpers/client";
import { keyRollTests } from "../helpers/key-roll-tests";
import { keyScriptTests, type ScratchState } from "../helpers/key-script-tests";
import { peekDatabase } from "../helpers/lock-store";
import { npmScript } from "../helpers/npm-script";

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
  const { code, stdout } = await npmScript("usage:deprecated", ["--persist-to", state.server.persistTo, "--days", "1"]);
  expect(code).toBe(0);
  expect(stdout).toMatch(/^operator +[0-9a-f]{12}… +getPet +1 +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
});

describe("backup and restore", () => backupTests(state));
