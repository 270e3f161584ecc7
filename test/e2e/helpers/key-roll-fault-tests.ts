import { expect, it } from "vitest";
import type { Stores } from "../../../scripts/lib/stores";
import { api } from "./client";
import { keysOn, type ScratchState } from "./key-script-tests";

// A key roll whose write fails part way, on the local KV with one write or read failing:
// it changes nothing, says so, and the old key still works (test/e2e/local/operator-scripts.test.ts
// runs these on its scratch server; the commands themselves: ./key-script-tests.ts).

export const keyRollFaultTests = (state: ScratchState) => {
  const keys = keysOn(state);
  const newKey = async (args: string[]) => (await keys(args)).printed.at(-1) ?? "";
  const listPets = (apiKey: string) => api("/v1/pets?limit=1", { origin: state.server.origin, key: apiKey });

  const listedAs = async (label: string) => (await keys(["list"])).printed.filter((line) => line.includes(label));
  /** The local KV as the roll sees it, with `failing` in place of some of its calls. */
  const storesWith = (failing: (kv: Stores["keys"]) => Partial<Stores["keys"]>): Stores => ({
    ...state.stores,
    keys: { ...state.stores.keys, ...failing(state.stores.keys) },
  });

  it("key:roll changes nothing when the old key's new expiry cannot be written", async () => {
    const old = await newKey(["create", "roll that fails"]);
    const before = await listedAs("roll that fails");
    // The local KV, with its second write failing: the old key's record.
    let puts = 0;
    const failing = storesWith((kv) => ({
      put: (name, value, metadata) =>
        ++puts === 2 ? Promise.reject(new Error("KV write failed")) : kv.put(name, value, metadata),
    }));
    const roll = keysOn(state, failing)(["roll", old]);
    await expect(roll).rejects.toThrow(
      /^Nothing changed: the old key's expiry could not be written \(KV write failed\)/,
    );
    expect(await listedAs("roll that fails")).toEqual(before);
    expect((await listPets(old)).status).toBe(200);
  });

  it("key:roll changes nothing when the old key cannot be read back after its claim", async () => {
    const old = await newKey(["create", "roll unread"]);
    const before = await listedAs("roll unread");
    // The local KV, with its third read failing: the read-back of the old key's claim.
    let gets = 0;
    const failing = storesWith((kv) => ({
      get: (name) => (++gets === 3 ? Promise.reject(new Error("KV read failed")) : kv.get(name)),
    }));
    const roll = keysOn(state, failing)(["roll", old]);
    await expect(roll).rejects.toThrow(
      /^Nothing changed: the old key could not be read back \(KV read failed\); its record was put back; the new key was removed\.$/,
    );
    expect(await listedAs("roll unread")).toEqual(before);
    expect((await listPets(old)).status).toBe(200);
  });
};
