// The sign-in Worker's own store (OAUTH_KV), as the library reads and writes it: each call
// under the key check's deadline, and each failure noted on the request, so that the Worker
// answers it as the fault it is (503 with Retry-After), whatever the library made of it. A
// name longer than KV allows is no fault but what the client sent: nothing can be stored
// under it, so it is read as missing, and writing it is refused as bad input.
import { KV_READ_DEADLINE_MS } from "../keys/verify";
import { withDeadline } from "../lib/faults";
import type { AuthEnv } from "./env";

/** KV's limit on a key's name, in bytes of UTF-8. */
const KV_KEY_MAX_BYTES = 512;

/** Thrown when the library would write under a name longer than KV allows: the client's input was too long. */
export class OverlongInput extends Error {}

/** The faults of one request's calls to its stores, as they happened. */
export type Faults = { causes: unknown[] };

const encoder = new TextEncoder();
const overlong = (name: unknown) =>
  typeof name === "string" && name.length * 3 > KV_KEY_MAX_BYTES && encoder.encode(name).length > KV_KEY_MAX_BYTES;

/** What each of KV's calls answers for a name that cannot exist. */
const ABSENT: Record<string, () => Promise<unknown>> = {
  get: () => Promise.resolve(null),
  getWithMetadata: () => Promise.resolve({ value: null, metadata: null, cacheStatus: null }),
  delete: () => Promise.resolve(),
};

const guarded = (kv: KVNamespace, faults: Faults): KVNamespace =>
  new Proxy(kv, {
    get(target, property: string) {
      const call = Reflect.get(target, property) as unknown;
      if (typeof call !== "function") return call;
      return (name: unknown, ...rest: unknown[]) => {
        if (overlong(name)) return ABSENT[property]?.() ?? Promise.reject(new OverlongInput("a name over KV's limit"));
        const running = Promise.resolve(call.call(target, name, ...rest));
        return withDeadline(running, KV_READ_DEADLINE_MS, "OAUTH_KV").catch((error: unknown) => {
          faults.causes.push(error);
          throw error;
        });
      };
    },
  });

/** The request's bindings, with OAUTH_KV guarded (API_KEYS and the limiter go through the key check, which has its own). */
export const guardStores = (env: AuthEnv, faults: Faults): AuthEnv => ({
  ...env,
  OAUTH_KV: guarded(env.OAUTH_KV, faults),
});
