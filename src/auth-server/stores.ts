// The sign-in Worker's own store (OAUTH_KV), as the library reads and writes it: each call
// under the key check's deadline, and each failure noted on the request, so that the Worker
// answers it as the fault it is (503 with Retry-After), whatever the library made of it. A
// name longer than KV allows, read from what the client sent (a client id, a code, a token),
// is no fault: nothing can be stored under it, so it is read as missing without asking KV.
// Every name written is made here (an id, a hash), never longer: KV would refuse one, a fault.
import { KV_READ_DEADLINE_MS } from "../keys/verify";
import { withDeadline } from "../lib/faults";
import type { AuthEnv } from "./env";

/** KV's limit on a key's name, in bytes of UTF-8. */
const KV_KEY_MAX_BYTES = 512;

/** The faults of one request's calls to its stores, as they happened. */
export type Faults = { causes: unknown[] };

const encoder = new TextEncoder();
const overlong = (name: string) => encoder.encode(name).length > KV_KEY_MAX_BYTES;

/** What KV's calls that find or remove a name answer for one that cannot exist. */
const ABSENT = new Map<string, () => Promise<unknown>>([
  ["get", () => Promise.resolve(null)],
  ["getWithMetadata", () => Promise.resolve({ value: null, metadata: null, cacheStatus: null })],
  ["delete", () => Promise.resolve()],
]);

const guarded = (kv: KVNamespace, faults: Faults): KVNamespace =>
  new Proxy(kv, {
    get(target, property: string) {
      const call = Reflect.get(target, property) as unknown;
      if (typeof call !== "function") return call;
      return (name: string, ...rest: unknown[]) => {
        const absent = ABSENT.get(property);
        if (absent && overlong(name)) return absent();
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
