import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import type { AuthEnv } from "../../src/auth-server/env";
import type AuthServer from "../../src/auth-server/worker";
import { BASE_URL } from "./index";
import { authorizeQuery, REDIRECT_URI } from "./sign-in";

// The sign-in Worker (src/auth-server/) run in the test's own isolate, on bindings a test
// hands it: the suite's stores as they are, or made to fail. Its suites: sign-in-faults,
// sign-in-odd-input.

/** The suite's stores, as the sign-in Worker is bound to them (wrangler.auth.toml). */
export const healthy: AuthEnv = {
  OAUTH_KV: (env as Cloudflare.Env & { TEST_OAUTH_KV: KVNamespace }).TEST_OAUTH_KV,
  API_KEYS: env.API_KEYS,
  AUTH_FAILURE_LIMITER: env.AUTH_FAILURE_LIMITER,
};

/**
 * Runs `run` and returns what the sign-in Worker and its library wrote to the console
 * meanwhile, each line as written: a test asserts the lines it provokes instead of printing them.
 */
export const consoleOf = async (run: () => Promise<void>) => {
  const lines: string[] = [];
  const capture = (...words: unknown[]) => {
    lines.push(words.map(String).join(" "));
  };
  const spies = (["log", "warn", "error"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(capture),
  );
  try {
    await run();
    return lines;
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
};

/** A form posted to the sign-in Worker from an address of its own. */
export const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  new Request(`${BASE_URL}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "198.18.7.7", ...headers },
    body: new URLSearchParams(fields),
  });

/**
 * The sign-in Worker, loaded, and an app registered on healthy stores: a worker on the
 * bindings given, the app's client id and its page's query.
 */
export const loadSignInWorker = async () => {
  let SignInWorker: typeof AuthServer | undefined;
  let registered = new Response();
  // The library says, as it loads, that it fetches no metadata document here (the suite's
  // Worker lacks the flag that lets it): said once, and not the test's subject.
  await consoleOf(async () => {
    SignInWorker = (await import("../../src/auth-server/worker")).default;
    registered = await new SignInWorker(createExecutionContext(), healthy).fetch(
      new Request(`${BASE_URL}/oauth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_name: "Faults host",
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: "none",
        }),
      }),
    );
  });
  const Loaded = SignInWorker as typeof AuthServer;
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  return {
    worker: (bindings: AuthEnv) => new Loaded(createExecutionContext(), bindings),
    clientId,
    pageQuery: authorizeQuery(clientId, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM").toString(),
  };
};

export type LoadedSignInWorker = Awaited<ReturnType<typeof loadSignInWorker>>;
