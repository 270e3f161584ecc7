import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { AuthEnv } from "../../../src/auth-server/env";
import type AuthServer from "../../../src/auth-server/worker";
import { BASE_URL } from "../../helpers/index";

// The sign-in Worker answers only once it has read its request's body to its end, as the API
// does (src/lib/bounded-body.ts), refusals that need none of it included. Unread, the body of a
// request that the API hands over its binding goes on streaming after the answer, and workerd
// reports each such request as an uncaught exception.

const healthy: AuthEnv = {
  OAUTH_KV: (env as Cloudflare.Env & { TEST_OAUTH_KV: KVNamespace }).TEST_OAUTH_KV,
  API_KEYS: env.API_KEYS,
  AUTH_FAILURE_LIMITER: env.AUTH_FAILURE_LIMITER,
};
/** The throttle of strangers' attempts, refusing every one: an address over its minute's allowance. */
const overTheThrottle: AuthEnv = {
  ...healthy,
  AUTH_FAILURE_LIMITER: { limit: () => Promise.resolve({ success: false }) },
};

let SignInWorker: typeof AuthServer;
beforeAll(async () => {
  // The library says, as it loads, that it fetches no metadata document here: not printed.
  const quiet = (["log", "warn"] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => {}));
  try {
    SignInWorker = (await import("../../../src/auth-server/worker")).default;
  } finally {
    for (const spy of quiet) spy.mockRestore();
  }
});

/** A body of `chunks` chunks, sent as the reader asks, that says whether it was read to its end. */
const watchedBody = (chunks: number) => {
  let sent = 0;
  let readToEnd = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks) {
        readToEnd = true;
        controller.close();
        return;
      }
      sent++;
      controller.enqueue(new TextEncoder().encode("x".repeat(1000)));
    },
  });
  return { stream, readToEnd: () => readToEnd };
};

const answerTo = async (bindings: AuthEnv, path: string, method: string, headers: Record<string, string> = {}) => {
  const body = watchedBody(20);
  const answer = await new SignInWorker(createExecutionContext(), bindings).fetch(
    new Request(`${BASE_URL}${path}`, { method, headers, body: body.stream }),
  );
  return { status: answer.status, readToEnd: body.readToEnd() };
};

describe("the sign-in Worker", () => {
  it("reads a body to its end before a refusal that needs none of it", async () => {
    const json = { "Content-Type": "application/json" };
    expect(await answerTo(overTheThrottle, "/oauth/register", "POST", json)).toEqual({ status: 429, readToEnd: true });
    expect(await answerTo(healthy, "/oauth/register", "PUT", json)).toEqual({ status: 405, readToEnd: true });
    expect(await answerTo(healthy, "/authorize", "POST", json)).toEqual({ status: 415, readToEnd: true });
  });

  it("reads a body over its bound to its end before its 413", async () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    expect(await answerTo(healthy, "/oauth/register", "POST", { "Content-Type": "application/json" })).toEqual({
      status: 413,
      readToEnd: true,
    });
    expect(await answerTo(healthy, "/authorize", "POST", form)).toEqual({ status: 413, readToEnd: true });
    expect(await answerTo(healthy, "/oauth/token", "POST", form)).toEqual({ status: 413, readToEnd: true });
  });
});
