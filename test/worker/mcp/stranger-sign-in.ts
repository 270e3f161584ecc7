import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import type { AuthEnv } from "../../../src/auth-server/env";
import type AuthServer from "../../../src/auth-server/worker";
import { BASE_URL } from "../../helpers/index";
import { REDIRECT_URI } from "../../helpers/sign-in";

// The sign-in Worker run in the test's own isolate on the suite's stores, every write to its
// OAUTH_KV seen, for the tests of what a stranger may make it store
// (./sign-in-strangers.test.ts, ./sign-in-registrations.test.ts).

/** Every write the sign-in Worker made to OAUTH_KV, by key. */
export const written: string[] = [];
const oauthKv = (env as Cloudflare.Env & { TEST_OAUTH_KV: KVNamespace }).TEST_OAUTH_KV;
const bindings: AuthEnv = {
  OAUTH_KV: new Proxy(oauthKv, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (property !== "put" || typeof value !== "function")
        return typeof value === "function" ? value.bind(target) : value;
      return (key: string, ...rest: unknown[]) => {
        written.push(key);
        return (value as (...args: unknown[]) => Promise<void>).apply(target, [key, ...rest]);
      };
    },
  }),
  API_KEYS: env.API_KEYS,
  AUTH_FAILURE_LIMITER: env.AUTH_FAILURE_LIMITER,
};

let loaded: Promise<typeof AuthServer> | undefined;
/** The Worker's class, loaded once. */
const signInWorker = () => {
  loaded ??= (async () => {
    // The library says, as it loads, that it fetches no metadata document here (the suite's
    // Worker lacks the flag that lets it): said once, and not the test's subject.
    const spy = vi.spyOn(console, "warn").mockImplementation(() => {});
    const loadedWorker = (await import("../../../src/auth-server/worker")).default;
    spy.mockRestore();
    return loadedWorker;
  })();
  return loaded;
};

/** `request` as the sign-in Worker answers it. */
export const signIn = async (request: Request) =>
  new (await signInWorker())(createExecutionContext(), bindings).fetch(request);

/** A fresh address of RFC 2544's benchmarking range: one client of the throttle. */
export const freshAddress = () => {
  const [high = 0, low = 0] = crypto.getRandomValues(new Uint8Array(2));
  return `198.19.${high}.${low}`;
};

/** Client metadata of exactly `bytes` bytes, padded with a member the library ignores. */
export const metadataOf = (bytes: number) => {
  const bare = JSON.stringify({
    client_name: "Stranger",
    redirect_uris: [REDIRECT_URI],
    token_endpoint_auth_method: "none",
  });
  return `${bare.slice(0, -1)},"padding":"${"x".repeat(bytes - bare.length - ',"padding":""'.length)}"}`;
};

/** A registration from `address`. */
export const register = (address: string, body = metadataOf(200)) =>
  signIn(
    new Request(`${BASE_URL}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
      body,
    }),
  );
