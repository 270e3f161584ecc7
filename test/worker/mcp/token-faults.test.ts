import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BASE_URL, createApiKey, expectError, send } from "../../helpers/index";
import { postMcp, toolCall } from "../../helpers/mcp-calls";
import { accessTokenFor, SIGN_IN } from "../../helpers/sign-in";

// An access token at /mcp while the sign-in Worker (src/auth-server/, bound as AUTH) fails:
// throws, hangs past its deadline, or is not bound. Tokens get 503, keys carry on. What a
// token is worth while it answers: ./sign-in.test.ts.

/** docs/mcp.md: the sign-in Worker is given 3 s to say whether a token is valid. */
const AUTH_DEADLINE_MS = 3_000;

afterEach(() => vi.useRealTimers());

/** list_pets through /mcp with `bearer` (a key or a token), on `bindings`. */
const listPets = (bearer: string, bindings?: Cloudflare.Env) =>
  postMcp(bearer, toolCall("list_pets", {}), { bindings });

describe("an access token at /mcp", () => {
  it("gets 503 with Retry-After, never 401, while the sign-in Worker throws or hangs; a key carries on", async () => {
    const key = await createApiKey("through a sign-in outage");
    const token = await accessTokenFor(key);
    // The fault lines are asserted below, not printed.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const failing = { ...env, AUTH: { ...env.AUTH, validateToken: () => Promise.reject(new Error("AUTH is down")) } };
    const refused = await listPets(token, failing as unknown as Cloudflare.Env);
    await expectError(refused, 503, "unavailable");
    expect(refused.headers.get("Retry-After")).toBe("3");
    expect((await listPets(key, failing as unknown as Cloudflare.Env)).status).toBe(200);

    expect(JSON.parse(String(warn.mock.calls.at(-1)?.[0]))).toMatchObject({
      dependency: "AUTH",
      cause: "AUTH is down",
    });

    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const hanging = { ...env, AUTH: { ...env.AUTH, validateToken: () => new Promise(() => {}) } };
    const answer = listPets(token, hanging as unknown as Cloudflare.Env);
    let answered = false;
    void answer.then(() => {
      answered = true;
    });
    // Not a millisecond before the deadline, and at it: the deadline pinned from both sides.
    await vi.advanceTimersByTimeAsync(AUTH_DEADLINE_MS - 1);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toBe(true);
    const { message } = await expectError(await answer, 503, "unavailable");
    expect(message).toBe("Signing in is unavailable for a moment; retry in 3 seconds.");
    // The fault line the runbook's queries find: which dependency, why, and what the client got.
    const faults = warn.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(faults.at(-1)).toMatchObject({
      message: "dependency fault",
      dependency: "AUTH",
      cause: `AUTH did not answer within ${AUTH_DEADLINE_MS} ms`,
      outcome: "503",
    });
    warn.mockRestore();
  });

  it("gets 503 where no sign-in Worker is bound, as its pages do; a key carries on", async () => {
    const key = await createApiKey("no sign-in worker");
    const { AUTH: _, ...unbound } = env;
    const refused = await listPets("user:grant:secret", unbound as Cloudflare.Env);
    const { message } = await expectError(refused, 503, "unavailable");
    expect(message).toBe("Signing in is unavailable for a moment; retry in 3 seconds.");
    expect(refused.headers.get("WWW-Authenticate")).toBeNull();
    const page = await send(new Request(`${BASE_URL}/authorize?client_id=x`), {
      bindings: unbound as Cloudflare.Env,
      outsideContract: SIGN_IN,
    });
    await expectError(page, 503, "unavailable");
    expect((await listPets(key, unbound as Cloudflare.Env)).status).toBe(200);
  });
});

describe("a tool call refused a token for scope", () => {
  it("is still the 403 with the scope challenge while the sign-in Worker cannot note the step-up, and says so in a fault line", async () => {
    const key = await createApiKey("a step-up in a sign-in outage");
    const token = await accessTokenFor(key, "read");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    // The real binding, but for the one call that notes a step-up.
    const auth = new Proxy(env.AUTH, {
      get: (target, property) =>
        property === "noteStepUp"
          ? () => Promise.reject(new Error("AUTH is down"))
          : (Reflect.get(target, property) as unknown),
    });
    const failing = { ...env, AUTH: auth };
    const refused = await postMcp(token, toolCall("create_pet", { name: "Rex", categoryId: 1 }), {
      bindings: failing as unknown as Cloudflare.Env,
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope"');
    expect(JSON.parse(String(warn.mock.calls.at(-1)?.[0]))).toMatchObject({
      dependency: "AUTH",
      cause: "AUTH is down",
      outcome: "403, no step-up noted",
    });
    warn.mockRestore();
  });
});
