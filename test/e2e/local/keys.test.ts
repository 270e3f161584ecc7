import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevServer } from "../../../scripts/dev-server";
import { KNOWN_KEY_TTL_MS } from "../../../src/auth";
import { api, expectError, petName } from "../client";
import { npmScript, startScratchServer } from "../global-setup";

// The key scripts, as an operator runs them, against a scratch `npm run dev` that serves
// the keys they write: scopes, expiry, rolling with an overlap, revocation, the list.
// The tests run at once, so that their waits (seconds for expiry, up to the isolate's
// key cache time for revocation) overlap.

let server: DevServer;
beforeAll(async () => {
  ({ server } = await startScratchServer("key scripts"));
}, 120_000);
afterAll(() => server?.stop());

let previousCommand: Promise<unknown> = Promise.resolve();
/**
 * `npm run --silent key:<command> -- ...args` on the server's state, one at a time: the
 * local KV store refuses a write while another process writes it (500).
 */
const keys = (command: string, ...args: string[]) => {
  const run = previousCommand.then(() => npmScript(`key:${command}`, [...args, "--persist-to", server.persistTo]));
  previousCommand = run.catch(() => undefined);
  return run;
};
/** The key that a create or roll printed: the last line of its stdout. */
const printedKey = async (command: ReturnType<typeof keys>) => {
  const { code, stdout, stderr } = await command;
  expect(code, stderr).toBe(0);
  return stdout.trim().split("\n").at(-1) ?? "";
};
const listPets = (key: string) => api("/v1/pets?limit=1", { origin: server.origin, key });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Polls until `key` gets 401, for at most `withinMs`; returns the 401's message and when it came. */
const refusedWithin = async (key: string, withinMs: number) => {
  const started = Date.now();
  let response = await listPets(key);
  while (response.status === 200 && Date.now() - started < withinMs) {
    await response.arrayBuffer();
    await sleep(250);
    response = await listPets(key);
  }
  const { message } = await expectError(response, 401, "unauthorized");
  return { message, afterMs: Date.now() - started };
};

describe.concurrent("the key scripts", () => {
  it("key:create --scope read issues a key that lists pets and gets 403 on createPet", async () => {
    const reader = await printedKey(keys("create", "read only", "--scope", "read"));
    expect((await listPets(reader)).status).toBe(200);
    const refused = await expectError(
      await api("/v1/pets", {
        origin: server.origin,
        key: reader,
        method: "POST",
        json: { name: petName("read-only"), categoryId: 1 },
      }),
      403,
      "forbidden",
    );
    expect(refused.message).toContain("'write'");
  }, 90_000);

  // 20 s: long enough for the first request to come before the instant on a loaded machine.
  it("key:create --expires 20s issues a key that works, then gets 401 saying it expired, from its instant on", async () => {
    const expiring = await printedKey(keys("create", "short-lived", "--expires", "20s"));
    expect((await listPets(expiring)).status).toBe(200);
    const workedAt = Date.now();
    const { message } = await refusedWithin(expiring, 30_000);
    const refusedAt = Date.now();
    const instant = Date.parse(/^The API key expired at (\S+Z)\.$/.exec(message)?.[1] ?? "");
    expect(workedAt).toBeLessThan(instant);
    expect(refusedAt).toBeGreaterThanOrEqual(instant);
  }, 90_000);

  it("key:roll issues a key with the same label and scopes; both work during the overlap, then only the new one", async () => {
    // The old key's new expiry reaches an isolate that holds its record within the key cache time, as a revocation does.
    const old = await printedKey(keys("create", "rolled team", "--scope", "read"));
    expect((await listPets(old)).status).toBe(200);
    const rolled = await printedKey(keys("roll", old, "--overlap", "20s"));
    expect(rolled).not.toBe(old);
    expect((await listPets(rolled)).status).toBe(200);
    expect((await listPets(old)).status).toBe(200);
    const listed = (await keys("list")).stdout.split("\n").filter((line) => line.includes("rolled team"));
    expect(listed).toHaveLength(2);
    for (const line of listed) expect(line).toMatch(/ read +\d{4}-/);
    const { message } = await refusedWithin(old, KNOWN_KEY_TTL_MS + 10_000);
    expect(message).toMatch(/expired/);
    expect((await listPets(rolled)).status).toBe(200);
    await expectError(
      await api("/v1/pets", { origin: server.origin, key: rolled, method: "POST", json: { name: "x", categoryId: 1 } }),
      403,
      "forbidden",
    );
  }, 90_000);

  it(`key:revoke takes effect within the isolate's key cache time (${KNOWN_KEY_TTL_MS / 1000} s under wrangler dev)`, async () => {
    const revoked = await printedKey(keys("create", "to be revoked"));
    expect((await listPets(revoked)).status).toBe(200);
    expect((await keys("revoke", revoked)).code).toBe(0);
    const { message, afterMs } = await refusedWithin(revoked, KNOWN_KEY_TTL_MS + 5_000);
    expect(message).toBe("The API key is not valid.");
    expect(afterMs).toBeLessThanOrEqual(KNOWN_KEY_TTL_MS + 5_000);
  }, 90_000);

  it("key:list shows each key's hash, label, scopes, creation, expiry and day of last use", async () => {
    const used = await printedKey(keys("create", "listed and used", "--expires", "2099-01-01T00:00:00Z"));
    expect((await listPets(used)).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const row =
      /^[0-9a-f]{64} +listed and used +read,write +\d{4}-\d\d-\d\dT[\d:.]+Z +2099-01-01T00:00:00\.000Z +(\S+)$/m;
    // The day of use is written after the response: a moment later.
    let listed = (await keys("list")).stdout;
    for (let attempt = 0; row.exec(listed)?.[1] !== today && attempt < 20; attempt++) {
      await sleep(250);
      listed = (await keys("list")).stdout;
    }
    expect(listed).toMatch(/^hash +label +scopes +created +expires +last used$/m);
    expect(row.exec(listed)?.[1]).toBe(today);
  }, 90_000);

  it("refuse bad arguments with a clear message and a non-zero exit, and write nothing", async () => {
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
    for (const [args, message] of refusals) {
      const [command = "", ...rest] = args;
      const { code, stderr } = await keys(command, ...rest);
      expect(code, args.join(" ")).not.toBe(0);
      expect(stderr, args.join(" ")).toMatch(message);
    }
    // Nothing was written: no key of those labels is listed (the other tests add theirs meanwhile).
    const listed = (await keys("list")).stdout;
    for (const label of ["no scope", "past", "impossible day", "no unit", "misplaced"]) {
      expect(listed).not.toMatch(new RegExp(`^[0-9a-f]{64} +${label} `, "m"));
    }
  }, 90_000);
});
