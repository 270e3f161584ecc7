import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { runKeys } from "../../../scripts/keys";
import type { DevServer } from "../../../scripts/lib/dev-server";
import type { ClaimWait } from "../../../scripts/lib/key-roll";
import type { Stores } from "../../../scripts/lib/stores";
import { api, expectError, petName } from "./client";
import { npmScript } from "./npm-script";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/keys.md: a change to a key reaches every isolate within 60 s */
const KNOWN_KEY_TTL_MS = 60_000;

// The key scripts on the state of a scratch `wrangler dev` that serves what they write
// (test/e2e/local/operator-scripts.test.ts starts it). `npm run key:create` and a refusal run
// as an operator types them, a process each: the entry that prints the key alone on
// stdout, the rest on stderr, and the exit code. Every command, its options and refusals
// run through the same function in this process, on the same state: a process costs
// seconds, a call milliseconds. Where a key's expiry or a roll's overlap must be over,
// the scripts are handed their clock rather than waited for.

/** The server, its key and its stores, set once the file's beforeAll has started them. */
export type ScratchState = { server: DevServer; key: string; stores: Stores };

const HOUR_MS = 3_600_000;
const iso = (instant: number) => new Date(instant).toISOString();

/** A roll's wait for other rolls' claims to land, where no other roll runs: nothing to wait for. */
const noOtherRoll = async () => {};

/**
 * The key command in this process, on the server's state, at `now` (the scripts' clock),
 * its rolls waiting for others' claims as `waitForClaims` does: what it said and printed.
 */
export const keysOn =
  (state: ScratchState, stores?: Stores) =>
  (args: string[], now = Date.now(), waitForClaims: ClaimWait = noOtherRoll) =>
    runKeys([...args, "--persist-to", state.server.persistTo], { now, waitForClaims, stores: stores ?? state.stores });

export const keyScriptTests = (state: ScratchState) => {
  const keys = keysOn(state);
  const newKey = async (args: string[], now?: number) => (await keys(args, now)).printed.at(-1) ?? "";
  const listPets = (apiKey: string) => api("/v1/pets?limit=1", { origin: state.server.origin, key: apiKey });
  const createPet = (apiKey: string) =>
    api("/v1/pets", {
      origin: state.server.origin,
      key: apiKey,
      method: "POST",
      json: { name: petName("keys"), categoryId: 1 },
    });

  it("npm run key:<command> runs scripts/keys.ts with that command, for each of them", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(import.meta.dirname, "../../../package.json"), "utf8"));
    for (const command of ["create", "roll", "revoke", "list"]) {
      expect(scripts[`key:${command}`]).toBe(`node --import tsx scripts/keys.ts ${command}`);
    }
  });

  it("npm run key:create prints a key that works, last on stdout; --scope read gets 403 on createPet", async () => {
    const { code, stdout, stderr } = await npmScript("key:create", [
      "created by npm",
      "--persist-to",
      state.server.persistTo,
    ]);
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

  it("key:roll issues a key with the same label and scopes; both work during the overlap, then only the new one", async () => {
    const old = await newKey(["create", "rolled team", "--scope", "read"]);
    const rolledAt = Date.now();
    const { said, printed } = await keys(["roll", old, "--overlap", "1h"], rolledAt);
    expect(said).toContain(`the old one stops working at ${iso(rolledAt + HOUR_MS)} in every isolate;`);
    const rolled = printed.at(-1) ?? "";
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

  it("key:revoke removes the key, and says by when every isolate refuses it", async () => {
    const revoked = await newKey(["create", "to be revoked"]);
    const revokedAt = Date.now();
    const { said, printed } = await keys(["revoke", revoked], revokedAt);
    expect(said).toContain(`in every isolate by ${iso(revokedAt + KNOWN_KEY_TTL_MS)}`);
    expect(printed).toEqual([]);
    // No isolate had read it: refused at once. One that had keeps it up to KNOWN_KEY_TTL_MS
    // (test/worker/keys/auth-cache.test.ts, with the Worker's clock in the test's hands).
    const { message } = await expectError(await listPets(revoked), 401, "unauthorized");
    expect(message).toBe("The API key is not valid.");
  });

  it("key:list shows each key's hash, label, scopes, creation, expiry and day of last use", async () => {
    const expires = new Date(Date.UTC(new Date().getUTCFullYear() + 5, 0, 1)).toISOString();
    const used = await newKey(["create", "listed and used", "--expires", expires]);
    // The server's day of the call: the day before it, or (past midnight UTC) the day after.
    const dayBefore = new Date().toISOString().slice(0, 10);
    expect((await listPets(used)).status).toBe(200);
    const days = [dayBefore, new Date().toISOString().slice(0, 10)];
    const row = /^[0-9a-f]{64} +listed and used +read,write +\d{4}-\d\d-\d\dT[\d:.]+Z +(\S+) +(\S+)$/m;
    const listed = async () => (await keys(["list"])).printed.join("\n");
    // The day of use is written right after the response.
    await expect
      .poll(async () => row.exec(await listed())?.slice(1), { timeout: 600_000, interval: 250 })
      .toEqual([expires, expect.toBeOneOf(days)]);
    expect(await listed()).toMatch(/^hash +label +scopes +created +expires +last used$/m);
  });

  it("refuse bad arguments with a clear message and a non-zero exit, and write nothing", async () => {
    const { code, stderr } = await npmScript("key:create", ["bad clock", "--persist-to", state.server.persistTo], {
      PETSTORE_NOW: "yesterday",
    });
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
    // Nothing was written: no key of those labels is listed.
    const listed = (await keys(["list"])).printed.join("\n");
    for (const label of ["no scope", "past", "impossible day", "no unit", "misplaced", "bad clock"]) {
      expect(listed).not.toMatch(new RegExp(`^[0-9a-f]{64} +${label} `, "m"));
    }
  });
};
