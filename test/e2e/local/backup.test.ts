import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../../scripts/dev-server";
import { wrangler } from "../../../scripts/wrangler";
import { hashApiKey } from "../../../src/api-keys";
import { api, type Pet, petName } from "../client";
import { npmScript, startScratchServer } from "../global-setup";

// `npm run backup` of a local state that a running `npm run dev` serves, `npm run restore`
// into fresh state, and a server on the restored state answering as the first did.

const scratch = mkdtempSync(path.join(tmpdir(), "petstore-backup-test-"));
let source: DevServer;
let restored: DevServer | undefined;
let key = "";
beforeAll(async () => {
  ({ server: source, apiKey: key } = await startScratchServer("backup source"));
}, 120_000);
afterAll(async () => {
  await Promise.all([source?.stop(), restored?.stop()]);
  rmSync(scratch, { recursive: true, force: true });
});

const npmRun = async (script: string, ...args: string[]) => {
  const { code, stderr } = await npmScript(script, args);
  return { code, stderr };
};

it("restores into fresh state a database that answers the same pets, ids and idempotency records", async () => {
  const on =
    (origin: string) =>
    (pathname: string, init: Parameters<typeof api>[1] = {}) =>
      api(pathname, { origin, key, ...init });
  const keyed = {
    method: "POST",
    json: { name: petName("backed up, keyed"), categoryId: 2, status: "sold" },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  };
  for (const name of ["first", "second"]) {
    expect(
      (await on(source.origin)("/v1/pets", { method: "POST", json: { name: petName(name), categoryId: 1 } })).status,
    ).toBe(201);
  }
  const keyedPet = (await (await on(source.origin)("/v1/pets", keyed)).json()) as Pet;
  const before = (await (await on(source.origin)("/v1/pets?limit=100")).json()) as Pet[];
  expect(before).toHaveLength(3);

  const file = path.join(scratch, "backup.sql");
  expect(await npmRun("backup", "--persist-to", source.persistTo, "--output", file)).toEqual({
    code: 0,
    stderr: expect.stringMatching(/Backed up/),
  });
  const restoredState = path.join(scratch, "restored");
  expect(await npmRun("restore", "--persist-to", restoredState, "--input", file)).toEqual({
    code: 0,
    stderr: expect.stringMatching(/Restored/),
  });
  // API keys live in KV, which a backup of D1 does not hold: the key's record goes along.
  const hash = await hashApiKey(key);
  const record = wrangler([
    "kv",
    "key",
    "get",
    "--binding",
    "API_KEYS",
    hash,
    "--local",
    "--persist-to",
    source.persistTo,
  ]).trim();
  wrangler(["kv", "key", "put", "--binding", "API_KEYS", hash, record, "--local", "--persist-to", restoredState]);

  restored = await startDevServer({ name: "the restored state", command: "npm run dev", persistTo: restoredState });
  const onRestored = on(restored.origin);
  expect(await (await onRestored("/v1/pets?limit=100")).json()).toEqual(before);
  const replay = await onRestored("/v1/pets", keyed);
  expect(replay.status).toBe(201);
  expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
  expect(await replay.json()).toEqual(keyedPet);
  const next = (await (
    await onRestored("/v1/pets", { method: "POST", json: { name: petName("after"), categoryId: 1 } })
  ).json()) as Pet;
  expect(next.id).toBeGreaterThan(Math.max(...before.map(({ id }) => id)));

  // A database that has tables is refused: the file would fail half-way on it.
  const refused = await npmRun("restore", "--persist-to", restoredState, "--input", file);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/is not empty \(it has .*pets.*\): restore into a new database/);
}, 180_000);
