import { expect, it } from "vitest";
import { claimSettleMs } from "../../../scripts/lib/key-roll";
import { type ApiKeyRecord, generateApiKey, hashApiKey } from "../../../src/keys/api-key";
import { api, type Pet, petName } from "./client";
import { keysOn, type ScratchState } from "./key-script-tests";

// What the key scripts refuse before their first write, what key:list prints of labels
// it did not write, and a rolled key as the same caller (test/e2e/helpers/key-script-tests.ts
// has the commands themselves; test/e2e/local/operator-scripts.test.ts runs both).

export const keyRollTests = (state: ScratchState) => {
  const keys = keysOn(state);
  const newKey = async (args: string[]) => (await keys(args)).printed.at(-1) ?? "";
  const listed = async () => (await keys(["list"])).printed;
  /** A key whose record was written as an older script or an operator's hand might have. */
  const keyWithRecord = async (record: ApiKeyRecord) => {
    const key = generateApiKey("development");
    await state.stores.keys.put(await hashApiKey(key), JSON.stringify(record), record);
    return key;
  };

  it("refuse, before writing anything, durations past their maximum, an expiry within the overlap, and a record KV cannot hold", async () => {
    const old = await newKey(["create", "bounded roll"]);
    const longLabel = await keyWithRecord({ label: "l".repeat(960), createdAt: new Date().toISOString() });
    const before = await listed();
    const refusals: [string[], RegExp][] = [
      [["roll", old, "--overlap", "100000000d"], /^--overlap must be at most 30d, not '100000000d'\.$/],
      [["roll", old, "--overlap", "2h", "--expires", "1h"], /^--expires must be after the overlap ends \(/],
      [["create", "far", "--expires", "3651d"], /^--expires must be at most 3650d/],
      [["create", "far", "--expires", "9999-01-01T00:00:00Z"], /^--expires must be at most 3650d away/],
      [["roll", longLabel], /^The key's record would take \d+ bytes, over KV's 1024: shorten its label\.$/],
    ];
    for (const [args, message] of refusals) await expect(keys(args), args.join(" ")).rejects.toThrow(message);
    expect(await listed()).toEqual(before);
  });

  it("take labels of 1 to 100 characters with a visible one, without control or format characters; key:list escapes every field a record holds", async () => {
    for (const label of ["two\nlines", "\u001b[31mred", "x".repeat(101), "\u202Eevil", " ", "\u3164", "\u2800\u2800"]) {
      await expect(keys(["create", label]), JSON.stringify(label)).rejects.toThrow(
        /needs a label of 1 to 100 characters with a visible one/,
      );
    }
    expect(await newKey(["create", `🐕 ${"x".repeat(98)}`])).toMatch(/^ps_test_/);
    const record = {
      label: "hand-written\u001b[2J\nlabel",
      scopes: ["read\u001b]0;owned\u0007"],
      createdAt: "2026-11-26\r\u009b31m",
      expiresAt: { at: "\u001b[5m" },
    };
    await keyWithRecord(record as never);
    const rows = (await listed()).filter((line) => line.includes("hand-written"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain("hand-written\\u{1b}[2J\\u{a}label ");
    expect(rows[0]).toContain("read\\u{1b}]0;owned\\u{7} ");
    expect(rows[0]).toContain("2026-11-26\\u{d}\\u{9b}31m ");
    expect(rows[0]).toContain('{"at":"\\u001b[5m"}');
    expect(rows[0]).not.toMatch(/\p{Cc}/u);
  });

  it("roll a key into one that lives as long: the old key's lifetime from the roll, never for a key that never does, or --expires; saying which", async () => {
    const DAY_MS = 24 * 60 * 60 * 1000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const rolledAt = Date.now();
    const roll = async (args: string[]) => (await keys(["roll", ...args], rolledAt)).said;
    const thirtyDays = await newKey(["create", "thirty days", "--expires", "30d"]);
    expect(await roll([thirtyDays])).toContain(
      `the new one expires at ${iso(rolledAt + 30 * DAY_MS)} (the old key's lifetime, 30 days, from now).`,
    );
    expect(await roll([await newKey(["create", "lasting"])])).toContain("the new one never expires (as the old key).");
    expect(await roll([await newKey(["create", "overridden", "--expires", "30d"]), "--expires", "90d"])).toContain(
      `the new one expires at ${iso(rolledAt + 90 * DAY_MS)} (--expires).`,
    );
    // A lifetime within the overlap (an hour, against 24 h) would end the successor first: refused, nothing written.
    const hour = await newKey(["create", "one hour", "--expires", "1h"]);
    const before = await listed();
    await expect(keys(["roll", hour], rolledAt)).rejects.toThrow(
      /is not longer than the overlap, so its successor would expire first/,
    );
    expect(await listed()).toEqual(before);
    // A hand-written record whose creation cannot be read: no lifetime to keep, so --expires is asked for.
    const unreadable = await keyWithRecord({
      label: "hand-written",
      createdAt: "last spring",
      expiresAt: new Date(rolledAt + 30 * DAY_MS).toISOString(),
    });
    await expect(keys(["roll", unreadable], rolledAt)).rejects.toThrow(
      /gives no lifetime that can be read .*: pass --expires\.$/,
    );
  });

  it("roll a key once when two rolls run at the same time: one successor, and the other roll says so and removes its key", async () => {
    const old = await newKey(["create", "raced roll"]);
    // A roll waits, after its claim, until the other roll's claim has landed too (the wait the
    // scripts' clock would give it), or the other roll has ended: it saw this one's claim first.
    const waits: number[] = [];
    let released = () => {};
    const bothClaimed = new Promise<void>((release) => {
      released = release;
    });
    const started: ReturnType<typeof keys>[] = [];
    const ended = () => Promise.race(started.map((roll) => roll.then(String, String)));
    const untilTheOtherClaims = async (ms: number) => {
      waits.push(ms);
      if (waits.length === 2) released();
      await Promise.race([bothClaimed, ended()]);
    };
    const now = Date.now();
    for (const _ of [1, 2]) started.push(keys(["roll", old], now, untilTheOtherClaims));
    const rolls = await Promise.allSettled(started);
    // Each wait as long as docs/keys.md states for a local roll.
    expect(waits.length).toBeGreaterThan(0);
    expect(new Set(waits)).toEqual(new Set([1_000]));
    const won = rolls.flatMap((roll) => (roll.status === "fulfilled" ? [roll.value.printed.at(-1) ?? ""] : []));
    const lost = rolls.flatMap((roll) => (roll.status === "rejected" ? [(roll.reason as Error).message] : []));
    expect(won).toHaveLength(1);
    const successor = await hashApiKey(won[0] ?? "");
    expect(lost).toEqual([expect.stringMatching(/^Nothing changed: another key:roll of this key /)]);
    expect(lost[0]).toContain(successor);
    const raced = (await listed()).filter((line) => line.includes(" raced roll "));
    expect(raced.map((line) => line.split(" ")[0])).toEqual(expect.arrayContaining([await hashApiKey(old), successor]));
    expect(raced).toHaveLength(2);
    const origin = state.server.origin;
    expect((await api("/v1/pets?limit=1", { origin, key: won[0] })).status).toBe(200);
    await expect(keys(["roll", old])).rejects.toThrow(`to the key with hash ${successor}: roll that one.`);
    expect(claimSettleMs({ remote: true, env: "production" })).toBe(10_000);
  });

  it("roll a key once; each key rolled from it is the same caller, whose retried create replays", async () => {
    const origin = state.server.origin;
    const name = petName("rolled caller");
    const create = (key: string, idempotencyKey: string) =>
      api("/v1/pets", {
        origin,
        key,
        method: "POST",
        json: { name, categoryId: 1 },
        headers: { "Idempotency-Key": idempotencyKey },
      });
    const first = await newKey(["create", "rolled caller"]);
    const idempotencyKey = crypto.randomUUID();
    const created = await create(first, idempotencyKey);
    expect(created.status).toBe(201);
    const pet = (await created.json()) as Pet;

    const second = (await keys(["roll", first])).printed.at(-1) ?? "";
    // The message first: an await among toThrow's arguments would let the roll reject before
    // the assertion holds its promise, an unhandled rejection on a slow machine.
    const rolledAlready = `The key with hash ${await hashApiKey(first)} was rolled already, to the key with hash ${await hashApiKey(second)}: roll that one.`;
    await expect(keys(["roll", first])).rejects.toThrow(rolledAlready);
    const third = (await keys(["roll", second])).printed.at(-1) ?? "";
    for (const key of [second, third]) {
      const retried = await create(key, idempotencyKey);
      expect(retried.status).toBe(201);
      expect(retried.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await retried.json()).toEqual(pet);
    }
  });
};
