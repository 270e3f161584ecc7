import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevServer } from "../../../scripts/dev-server";
import { runKeys } from "../../../scripts/keys";
import { openStores, type Stores } from "../../../scripts/stores";
import { KNOWN_KEY_TTL_MS } from "../../../src/api-keys";
import { FLUSH_DEADLINE_MS, FLUSH_INTERVAL_MS } from "../../../src/deprecated-usage";
import { createPetThrough } from "../../api-client";
import { api, expectError, petName } from "../client";
import { npmScript, startScratchServer } from "../global-setup";

// The key scripts and the usage report, against one scratch `npm run dev` that serves
// what they write on its state (backup and restore: test/e2e/local/backup.test.ts). Each key
// command runs once as an operator types it (`npm run key:<command>`, a process of its
// own); their options and refusals run through the same function in this process, on
// the same state (a process costs seconds, a call milliseconds). Where a key's expiry or
// a roll's overlap must be over, the scripts are handed their clock rather than waited for.

const HOUR_MS = 3_600_000;
let server: DevServer;
let stores: Stores;
let key = "";
beforeAll(async () => {
  ({ server, apiKey: key } = await startScratchServer("operator scripts"));
  stores = await openStores({ remote: false, persistTo: server.persistTo });
}, 120_000);
afterAll(async () => {
  await stores?.close();
  await server?.stop();
});

/** `npm run --silent key:<command> -- ...args` on the server's state, PETSTORE_NOW set to `now` if given. */
const keyScript = (command: string, args: string[], now?: string) =>
  npmScript(`key:${command}`, [...args, "--persist-to", server.persistTo], now ? { PETSTORE_NOW: now } : {});
/** The same command in this process, at `now` (the scripts' clock): what it said and printed. */
const keys = (args: string[], now = Date.now()) => runKeys([...args, "--persist-to", server.persistTo], now, stores);
const newKey = async (args: string[], now?: number) => (await keys(args, now)).printed.at(-1) ?? "";

const listPets = (apiKey: string) => api("/v1/pets?limit=1", { origin: server.origin, key: apiKey });
const createPet = (apiKey: string) =>
  api("/v1/pets", {
    origin: server.origin,
    key: apiKey,
    method: "POST",
    json: { name: petName("keys"), categoryId: 1 },
  });
const iso = (instant: number) => new Date(instant).toISOString();

// One at a time: while another process writes the local KV store, the server's reads of it
// fail (as test/e2e/local/faults.test.ts makes them fail on purpose).
describe("the key scripts", () => {
  it("npm run key:create prints a key that works, last on stdout; --scope read gets 403 on createPet", async () => {
    const { code, stdout, stderr } = await keyScript("create", ["created by npm"]);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^Created the key "created by npm" \(read, write; expires never\)/);
    expect((await listPets(stdout.trim().split("\n").at(-1) ?? "")).status).toBe(200);
    const reader = await newKey(["create", "read only", "--scope", "read"]);
    expect((await listPets(reader)).status).toBe(200);
    expect((await expectError(await createPet(reader), 403, "forbidden")).message).toContain("'write'");
  });

  it("--expires sets the instant from which the key gets 401 saying it expired", async () => {
    expect((await listPets(await newKey(["create", "lasting", "--expires", "1h"]))).status).toBe(200);
    // Created an hour ago for 20 seconds: its instant is past.
    const createdAt = Date.now() - HOUR_MS;
    const expired = await newKey(["create", "short-lived", "--expires", "20s"], createdAt);
    const { message } = await expectError(await listPets(expired), 401, "unauthorized");
    expect(message).toBe(`The API key expired at ${iso(createdAt + 20_000)}.`);
  });

  it("npm run key:roll issues a key with the same label and scopes; both work during the overlap, then only the new one", async () => {
    const old = await newKey(["create", "rolled team", "--scope", "read"]);
    const rolledAt = Date.now();
    const { code, stdout, stderr } = await keyScript("roll", [old, "--overlap", "1h"], iso(rolledAt));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`the old one stops working at ${iso(rolledAt + HOUR_MS)} in every isolate;`);
    const rolled = stdout.trim().split("\n").at(-1) ?? "";
    expect(rolled).not.toBe(old);
    expect((await listPets(rolled)).status).toBe(200);
    expect((await listPets(old)).status).toBe(200);
    const listed = (await keys(["list"])).printed.filter((line) => line.includes("rolled team"));
    expect(listed).toHaveLength(2);
    for (const line of listed) expect(line).toMatch(/ read +\d{4}-/);
    await expectError(await createPet(rolled), 403, "forbidden");

    // Rolled two hours ago with an overlap of 20 s (shorter than an isolate keeps a record):
    // the old key expired long since, and only the new one works.
    const before = await newKey(["create", "rolled long ago", "--scope", "read"]);
    const longAgo = Date.now() - 2 * HOUR_MS;
    const past = await keys(["roll", before, "--overlap", "20s"], longAgo);
    expect(past.said).toContain(
      `the old one stops working at ${iso(longAgo + 20_000)}, and in every isolate by ${iso(longAgo + KNOWN_KEY_TTL_MS)}`,
    );
    expect((await expectError(await listPets(before), 401, "unauthorized")).message).toMatch(/expired/);
    expect((await listPets(past.printed.at(-1) ?? "")).status).toBe(200);
  });

  it("npm run key:revoke removes the key, and says by when every isolate refuses it", async () => {
    const revoked = await newKey(["create", "to be revoked"]);
    const revokedAt = Date.now();
    const { code, stderr } = await keyScript("revoke", [revoked], iso(revokedAt));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`in every isolate by ${iso(revokedAt + KNOWN_KEY_TTL_MS)}`);
    // No isolate had read it: refused at once. One that had keeps it up to KNOWN_KEY_TTL_MS
    // (test/auth-cache.test.ts, with the Worker's clock in the test's hands).
    const { message } = await expectError(await listPets(revoked), 401, "unauthorized");
    expect(message).toBe("The API key is not valid.");
  });

  it("npm run key:list shows each key's hash, label, scopes, creation, expiry and day of last use", async () => {
    const used = await newKey(["create", "listed and used", "--expires", "2099-01-01T00:00:00Z"]);
    expect((await listPets(used)).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const row =
      /^[0-9a-f]{64} +listed and used +read,write +\d{4}-\d\d-\d\dT[\d:.]+Z +2099-01-01T00:00:00\.000Z +(\S+)$/m;
    // The day of use is written right after the response.
    await expect
      .poll(async () => row.exec((await keys(["list"])).printed.join("\n"))?.[1], { timeout: 20_000, interval: 250 })
      .toBe(today);
    const { code, stdout } = await keyScript("list", []);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^hash +label +scopes +created +expires +last used$/m);
    expect(row.exec(stdout)?.[1]).toBe(today);
  });

  it("key:roll changes nothing when the old key's new expiry cannot be written", async () => {
    const old = await newKey(["create", "roll that fails"]);
    const before = (await keys(["list"])).printed.filter((line) => line.includes("roll that fails"));
    // The local KV, with its second write failing: the old key's record.
    let puts = 0;
    const failing: Stores = {
      ...stores,
      keys: {
        ...stores.keys,
        put: (name, value, metadata) =>
          ++puts === 2 ? Promise.reject(new Error("KV write failed")) : stores.keys.put(name, value, metadata),
      },
    };
    const roll = runKeys(["roll", old, "--persist-to", server.persistTo], Date.now(), failing);
    await expect(roll).rejects.toThrow(
      /^Nothing changed: the old key's expiry could not be written \(KV write failed\)/,
    );
    expect((await keys(["list"])).printed.filter((line) => line.includes("roll that fails"))).toEqual(before);
    expect((await listPets(old)).status).toBe(200);
  });

  it("refuse bad arguments with a clear message and a non-zero exit, and write nothing", async () => {
    const { code, stderr } = await keyScript("create", ["bad clock"], "yesterday");
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/PETSTORE_NOW must be an instant/);
    const refusals: [string[], RegExp][] = [
      [["create", "no scope", "--scope", "admin"], /--scope takes read, write or both/],
      [["create", "past", "--expires", "2020-01-01T00:00:00Z"], /must be in the future/],
      [["create", "impossible day", "--expires", "2030-02-30T00:00:00Z"], /--expires must be an instant/],
      [["create", "no unit", "--expires", "30"], /--expires must be an instant/],
      [["create", "misplaced", "--overlap", "1h"], /does not take --overlap/],
      [["create"], /Usage:/],
      [["roll", "not-a-key"], /Pass the key itself, or the hash/],
      [["roll", "a".repeat(64)], /No key with hash/],
      [["roll", "a".repeat(64), "--overlap", "soon"], /--overlap must be a duration/],
      [["revoke", "b".repeat(64)], /No key with hash/],
    ];
    for (const [args, message] of refusals) await expect(keys(args), args.join(" ")).rejects.toThrow(message);
    // Nothing was written: no key of those labels is listed (the other tests add theirs meanwhile).
    const listed = (await keys(["list"])).printed.join("\n");
    for (const label of ["no scope", "past", "impossible day", "no unit", "misplaced", "bad clock"]) {
      expect(listed).not.toMatch(new RegExp(`^[0-9a-f]{64} +${label} `, "m"));
    }
  });
});

// An isolate writes its first counts at once and later ones at most once per FLUSH_INTERVAL_MS.
it("usage:deprecated shows the getPet calls under the caller's key label", async () => {
  const onServer = { origin: server.origin, key };
  const { id } = await createPetThrough(api, { name: "Reported Rex", categoryId: 1 }, onServer);
  expect((await api(`/v1/pets/${id}`, onServer)).status).toBe(200);
  const oneCall = /^local development +[0-9a-f]{12}… +getPet +1 +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m;
  const report = () => npmScript("usage:deprecated", ["--persist-to", server.persistTo, "--days", "1"]);
  await expect
    .poll(async () => (await report()).stdout, { timeout: FLUSH_INTERVAL_MS + FLUSH_DEADLINE_MS, interval: 250 })
    .toMatch(oneCall);
});
