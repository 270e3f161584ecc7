import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, vi } from "vitest";
import { hashApiKey } from "../../src/keys/api-key";
import type { Pet } from "../../src/schemas";
import { timersSetOnceHung } from "./deadline";
import { call, createApiKey, createPet } from "./index";

// The documented numbers, written here rather than imported, so that a change to the code
// that the docs do not follow fails a test.
/** docs/api.md: an isolate writes at most once per 10 s */
const FLUSH_INTERVAL_MS = 10_000;

// The deprecated getPet called with the clock under the test's control (the Worker runs in
// this isolate): Date to be set, and the timers that the usage flush waits on.

/** Lets the usage flushes scheduled so far run (the clock moves past the interval), and waits for their writes. */
export const flushUsage = async (...contexts: ExecutionContext[]) => {
  await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS);
  await Promise.all(contexts.map((context) => waitOnExecutionContext(context)));
};

type UsageRow = { key_label: string; operation: string; day: string; calls: number; last_call_at: number };
export const usageOf = async (key: string) =>
  (
    await env.DB.prepare("select * from deprecated_calls where api_key_hash = ?")
      .bind(await hashApiKey(key))
      .all<UsageRow>()
  ).results;

/** A pet to read, made before the file's tests, and the fake clock around each test; returns the calls. */
export const callingGetPet = () => {
  let pet: Pet;
  beforeAll(async () => {
    pet = await createPet(await createApiKey("owner"), { name: "Old Rex", categoryId: 1 });
  });
  beforeEach(() => vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] }));
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * getPet with GET_PET_BROWNOUTS set, in `context` (a fresh one unless given); the context, to
   * wait for its deferred work; and the delay of the last timer the call set (after its
   * deadlines, the wait of the flush it scheduled, if it did), read as it is set: a wait too
   * long never ends on the held clock.
   */
  const startGetPet = async (
    key: string,
    {
      brownouts = "",
      bindings = env as Cloudflare.Env,
      address = "",
      context = createExecutionContext(),
    }: { brownouts?: string; bindings?: Cloudflare.Env; address?: string; context?: ExecutionContext } = {},
  ) => {
    // Every timer the call sets, from its start, read as it is set.
    const timers = timersSetOnceHung(() => 1);
    const response = await call(`/v1/pets/${pet.id}`, {
      key,
      // A key's first use counts against its address's allowance for keys the isolate does not know.
      ...(address && { headers: { "CF-Connecting-IP": address } }),
      bindings: { ...bindings, GET_PET_BROWNOUTS: brownouts },
      context,
    }).finally(timers.restore);
    return { response, context, flushWait: timers.delays.at(-1) };
  };

  /** getPet, resolved once the usage it recorded is written. */
  const getPet = async (key: string, options: { brownouts?: string; bindings?: Cloudflare.Env } = {}) => {
    const { response, context } = await startGetPet(key, options);
    await flushUsage(context);
    return response;
  };
  return { startGetPet, getPet };
};
