import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../../scripts/dev-server";
import { wrangler } from "../../../scripts/wrangler";
import { hashApiKey } from "../../../src/api-keys";
import { KNOWN_KEY_TTL_MS } from "../../../src/auth";
import { FLUSH_DEADLINE_MS, FLUSH_INTERVAL_MS } from "../../../src/deprecated-usage";
import { createPetThrough } from "../../api-client";
import { api, expectError, type Pet, petName } from "../client";
import { npmScript, startScratchServer } from "../global-setup";

// The scripts an operator runs, as an operator runs them, against one scratch `npm run dev`
// that serves what they write on its state: the key scripts, the usage report, backup and
// restore. Where a key's expiry or a roll's overlap must be over, the scripts are handed
// their clock (PETSTORE_NOW) rather than waited for.

const HOUR_MS = 3_600_000;
let server: DevServer;
let key = "";
const scratch = mkdtempSync(path.join(tmpdir(), "petstore-scripts-test-"));
beforeAll(async () => {
  ({ server, apiKey: key } = await startScratchServer("operator scripts"));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

let previousCommand: Promise<unknown> = Promise.resolve();
/**
 * `npm run --silent key:<command> -- ...args` on the server's state, one at a time (the
 * local KV store refuses a write while another process writes it), with `clock` as the
 * scripts' now if given (an instant, or what PETSTORE_NOW holds).
 */
const keys = (command: string, args: string[], clock?: number | string) => {
  const env: Record<string, string> =
    clock === undefined ? {} : { PETSTORE_NOW: typeof clock === "string" ? clock : new Date(clock).toISOString() };
  const run = previousCommand.then(() => npmScript(`key:${command}`, [...args, "--persist-to", server.persistTo], env));
  previousCommand = run.catch(() => undefined);
  return run;
};
/** The key that a create or roll printed (the last line of its stdout), and what it said. */
const printedKey = async (command: ReturnType<typeof keys>) => {
  const { code, stdout, stderr } = await command;
  expect(code, stderr).toBe(0);
  return { key: stdout.trim().split("\n").at(-1) ?? "", said: stderr };
};
const listPets = (apiKey: string) => api("/v1/pets?limit=1", { origin: server.origin, key: apiKey });
const createPet = (apiKey: string) =>
  api("/v1/pets", {
    origin: server.origin,
    key: apiKey,
    method: "POST",
    json: { name: petName("keys"), categoryId: 1 },
  });
const iso = (instant: number) => new Date(instant).toISOString();
/** Polls `read` until `done` holds of what it returns, for at most `withinMs`. */
const pollUntil = async <T>(read: () => Promise<T>, done: (value: T) => boolean, withinMs: number): Promise<T> => {
  const deadline = Date.now() + withinMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
};

// Their commands run one at a time (about 25, a few seconds each): a test may wait for
// the others' before its own.
describe.concurrent("the key scripts", { timeout: 600_000 }, () => {
  it("key:create --scope read issues a key that lists pets and gets 403 on createPet", async () => {
    const { key: reader } = await printedKey(keys("create", ["read only", "--scope", "read"]));
    expect((await listPets(reader)).status).toBe(200);
    const refused = await expectError(await createPet(reader), 403, "forbidden");
    expect(refused.message).toContain("'write'");
  });

  it("key:create --expires sets the instant from which the key gets 401 saying it expired", async () => {
    const { key: lasting } = await printedKey(keys("create", ["lasting", "--expires", "1h"]));
    expect((await listPets(lasting)).status).toBe(200);
    // Created an hour ago for 20 seconds: its instant is past.
    const createdAt = Date.now() - HOUR_MS;
    const { key: expired } = await printedKey(keys("create", ["short-lived", "--expires", "20s"], createdAt));
    const { message } = await expectError(await listPets(expired), 401, "unauthorized");
    expect(message).toBe(`The API key expired at ${iso(createdAt + 20_000)}.`);
  });

  it("key:roll issues a key with the same label and scopes; both work during the overlap, then only the new one", async () => {
    const { key: old } = await printedKey(keys("create", ["rolled team", "--scope", "read"]));
    expect((await listPets(old)).status).toBe(200);
    const rolledAt = Date.now();
    const { key: rolled, said } = await printedKey(keys("roll", [old, "--overlap", "1h"], rolledAt));
    expect(said).toContain(`the old one stops working at ${iso(rolledAt + HOUR_MS)} in every isolate;`);
    expect(rolled).not.toBe(old);
    expect((await listPets(rolled)).status).toBe(200);
    expect((await listPets(old)).status).toBe(200);
    const listed = (await keys("list", [])).stdout.split("\n").filter((line) => line.includes("rolled team"));
    expect(listed).toHaveLength(2);
    for (const line of listed) expect(line).toMatch(/ read +\d{4}-/);
    await expectError(await createPet(rolled), 403, "forbidden");

    // Rolled two hours ago with an overlap of 20 s (shorter than an isolate keeps a record):
    // the old key expired long since, and only the new one works.
    const { key: before } = await printedKey(keys("create", ["rolled long ago", "--scope", "read"]));
    const longAgo = Date.now() - 2 * HOUR_MS;
    const past = await printedKey(keys("roll", [before, "--overlap", "20s"], longAgo));
    expect(past.said).toContain(
      `the old one stops working at ${iso(longAgo + 20_000)}, and in every isolate by ${iso(longAgo + KNOWN_KEY_TTL_MS)}`,
    );
    expect((await expectError(await listPets(before), 401, "unauthorized")).message).toMatch(/expired/);
    expect((await listPets(past.key)).status).toBe(200);
  });

  it("key:revoke removes the key, and says by when every isolate refuses it", async () => {
    const { key: revoked } = await printedKey(keys("create", ["to be revoked"]));
    const revokedAt = Date.now();
    const { code, stderr } = await keys("revoke", [revoked], revokedAt);
    expect(code).toBe(0);
    expect(stderr).toContain(`in every isolate by ${iso(revokedAt + KNOWN_KEY_TTL_MS)}`);
    // No isolate had read it: refused at once. One that had keeps it up to KNOWN_KEY_TTL_MS
    // (test/auth-cache.test.ts, with the Worker's clock in the test's hands).
    const { message } = await expectError(await listPets(revoked), 401, "unauthorized");
    expect(message).toBe("The API key is not valid.");
  });

  it("key:list shows each key's hash, label, scopes, creation, expiry and day of last use", async () => {
    const { key: used } = await printedKey(keys("create", ["listed and used", "--expires", "2099-01-01T00:00:00Z"]));
    expect((await listPets(used)).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const row =
      /^[0-9a-f]{64} +listed and used +read,write +\d{4}-\d\d-\d\dT[\d:.]+Z +2099-01-01T00:00:00\.000Z +(\S+)$/m;
    // The day of use is written after the response: a moment later.
    const listed = await pollUntil(
      async () => (await keys("list", [])).stdout,
      (text) => row.exec(text)?.[1] === today,
      5_000,
    );
    expect(listed).toMatch(/^hash +label +scopes +created +expires +last used$/m);
    expect(row.exec(listed)?.[1]).toBe(today);
  });

  it("refuse bad arguments with a clear message and a non-zero exit, and write nothing", async () => {
    const refusals: [string[], RegExp, string?][] = [
      [["create", "no scope", "--scope", "admin"], /--scope takes read, write or both/],
      [["create", "past", "--expires", "2020-01-01T00:00:00Z"], /must be in the future/],
      [["create", "impossible day", "--expires", "2030-02-30T00:00:00Z"], /--expires must be an instant/],
      [["create", "no unit", "--expires", "30"], /--expires must be an instant/],
      [["create", "misplaced", "--overlap", "1h"], /does not take --overlap/],
      [["create", "bad clock"], /PETSTORE_NOW must be an instant/, "yesterday"],
      [["create"], /Usage:/],
      [["roll", "not-a-key"], /Pass the key itself, or the hash/],
      [["roll", "a".repeat(64)], /No key with hash/],
      [["roll", "a".repeat(64), "--overlap", "soon"], /--overlap must be a duration/],
      [["revoke", "b".repeat(64)], /No key with hash/],
    ];
    for (const [[command = "", ...args], message, clock] of refusals) {
      const { code, stderr } = await keys(command, args, clock);
      expect(code, args.join(" ")).not.toBe(0);
      expect(stderr, args.join(" ")).toMatch(message);
    }
    // Nothing was written: no key of those labels is listed (the other tests add theirs meanwhile).
    const listed = (await keys("list", [])).stdout;
    for (const label of ["no scope", "past", "impossible day", "no unit", "misplaced", "bad clock"]) {
      expect(listed).not.toMatch(new RegExp(`^[0-9a-f]{64} +${label} `, "m"));
    }
  });
});

// An isolate writes its first counts at once and later ones at most once per FLUSH_INTERVAL_MS.
it("usage:deprecated shows the getPet calls under the caller's key label", { timeout: 60_000 }, async () => {
  const onServer = { origin: server.origin, key };
  const { id } = await createPetThrough(api, { name: "Reported Rex", categoryId: 1 }, onServer);
  expect((await api(`/v1/pets/${id}`, onServer)).status).toBe(200);
  const oneCall = /^operator scripts +[0-9a-f]{12}… +getPet +1 +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m;
  const report = () => npmScript("usage:deprecated", ["--persist-to", server.persistTo, "--days", "1"]);
  const printed = await pollUntil(
    async () => (await report()).stdout,
    (text) => oneCall.test(text),
    FLUSH_INTERVAL_MS + FLUSH_DEADLINE_MS,
  );
  expect(printed).toMatch(oneCall);
});

// `npm run backup` of the state the server serves, `npm run restore` into fresh state, and a
// server on the restored state answering as the first did.
describe("backup and restore", () => {
  let restored: DevServer | undefined;
  afterAll(() => restored?.stop());

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
        (await on(server.origin)("/v1/pets", { method: "POST", json: { name: petName(name), categoryId: 1 } })).status,
      ).toBe(201);
    }
    const keyedPet = (await (await on(server.origin)("/v1/pets", keyed)).json()) as Pet;
    const before = (await (await on(server.origin)("/v1/pets?limit=100")).json()) as Pet[];
    expect(before).toContainEqual(keyedPet);

    const file = path.join(scratch, "backup.sql");
    const backedUp = await npmScript("backup", ["--persist-to", server.persistTo, "--output", file]);
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(backedUp.stderr).toMatch(/Backed up/);
    const restoredState = path.join(scratch, "restored");
    const restoredRun = await npmScript("restore", ["--persist-to", restoredState, "--input", file]);
    expect(restoredRun.code, restoredRun.stderr).toBe(0);
    expect(restoredRun.stderr).toMatch(/Restored/);
    // API keys live in KV, which a backup of D1 does not hold: the key's record goes along.
    const hash = await hashApiKey(key);
    const kv = (persistTo: string) => ["--binding", "API_KEYS", hash, "--local", "--persist-to", persistTo];
    const record = wrangler(["kv", "key", "get", ...kv(server.persistTo)]).trim();
    wrangler(["kv", "key", "put", ...kv(restoredState).slice(0, 3), record, ...kv(restoredState).slice(3)]);

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
    const refused = await npmScript("restore", ["--persist-to", restoredState, "--input", file]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/is not empty \(it has .*pets.*\): restore into a new database/);
  }, 120_000);
});
