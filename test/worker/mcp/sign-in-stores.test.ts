import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AuthEnv } from "../../../src/auth-server/env";
import { type Faults, guardStores } from "../../../src/auth-server/stores";

// The sign-in Worker's store as the library sees it (src/auth-server/stores.ts), on the real
// local KV: a name longer than KV's limit of 512 bytes of UTF-8 is the client's input, not a
// fault (read as missing), to the byte, counted in UTF-8 and not in characters; every other
// call reaches KV, and its failure is noted for the 503.

/** KV's limit on a key's name, in bytes of UTF-8 (Cloudflare's KV limits). */
const KV_KEY_MAX_BYTES = 512;
const kv = (env as Cloudflare.Env & { TEST_OAUTH_KV: KVNamespace }).TEST_OAUTH_KV;

const guardedOver = (store: KVNamespace) => {
  const faults: Faults = { causes: [] };
  return { store: guardStores({ ...env, OAUTH_KV: store } as unknown as AuthEnv, faults).OAUTH_KV, faults };
};
// "€" is three bytes of UTF-8 and one UTF-16 code unit.
const names = {
  atLimit: "n".repeat(KV_KEY_MAX_BYTES),
  overLimit: "n".repeat(KV_KEY_MAX_BYTES + 1),
  atLimitInEuros: `${"€".repeat(170)}nn`,
  overLimitInEuros: "€".repeat(171),
};

describe("the sign-in Worker's store", () => {
  it("reads and writes a name of 512 bytes of UTF-8 in KV itself", async () => {
    const { store, faults } = guardedOver(kv);
    for (const name of [names.atLimit, names.atLimitInEuros]) {
      expect(new TextEncoder().encode(name)).toHaveLength(KV_KEY_MAX_BYTES);
      await store.put(name, "value");
      expect(await store.get(name)).toBe("value");
      expect((await store.getWithMetadata(name)).value).toBe("value");
      await store.delete(name);
      expect(await kv.get(name)).toBeNull();
    }
    expect(faults.causes).toEqual([]);
  });

  it("reads a name of 513 bytes as missing, and deletes it, without calling KV, and notes no fault", async () => {
    // The real binding, each of its calls made to throw: the guard must call none of them.
    const untouchable = new Proxy(kv, {
      get: (target, method) =>
        typeof Reflect.get(target, method) === "function"
          ? () => {
              throw new Error(`KV's ${String(method)} was called`);
            }
          : Reflect.get(target, method),
    });
    const { store, faults } = guardedOver(untouchable);
    for (const name of [names.overLimit, names.overLimitInEuros]) {
      expect(new TextEncoder().encode(name)).toHaveLength(KV_KEY_MAX_BYTES + 1);
      expect(await store.get(name)).toBeNull();
      expect(await store.getWithMetadata(name)).toEqual({ value: null, metadata: null, cacheStatus: null });
      await expect(store.delete(name)).resolves.toBeUndefined();
    }
    expect(faults.causes).toEqual([]);
  });

  it("leaves a write under a name of 513 bytes to KV, which refuses it: no name it writes is that long, so it is a fault", async () => {
    const { store, faults } = guardedOver(kv);
    await expect(store.put(names.overLimit, "value")).rejects.toThrow(/512/);
    expect(faults.causes).toHaveLength(1);
    expect(await kv.list({ prefix: "nnn" })).toMatchObject({ keys: [] });
  });

  it("notes each failure of KV on the request, and rejects with it", async () => {
    const failure = new Error("KV GET failed: 503 injected");
    // The real binding, its reads made to fail as production's KV can.
    const failing = new Proxy(kv, {
      get: (target, method) => (method === "get" ? () => Promise.reject(failure) : Reflect.get(target, method)),
    });
    const { store, faults } = guardedOver(failing);
    await expect(store.get("client:any")).rejects.toBe(failure);
    expect(faults.causes).toEqual([failure]);
  });
});
