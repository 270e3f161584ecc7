import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type CallOptions, createApiKey, faultLogLines } from "../../helpers/index";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { postMcp, resultOf, toolCall } from "../../helpers/mcp-calls";
import { failing, wrapBindings } from "../../helpers/wrap-bindings";

// Each request to /mcp counts once against the key's limit, at the door, whatever it holds;
// a tool call's access line carries its operation's status and code, as an HTTP caller's does.

const { TEST_RATE_LIMIT } = env as Cloudflare.Env & { TEST_RATE_LIMIT: number };
let key: string;
beforeAll(async () => {
  key = await createApiKey("mcp count");
});
afterEach(() => vi.restoreAllMocks());
const post = (body: unknown, options: CallOptions = {}) => postMcp(key, body, options);

/** What each kind of message of the audit's finding 1 is; none of them runs an operation. */
const MESSAGES: [string, unknown][] = [
  ["a notification naming a tool", { jsonrpc: "2.0", method: "tools/call", params: { name: "list_pets" } }],
  ["arguments that are not an object", toolCall("list_pets", "x")],
  ["jsonrpc 1.0", { ...toolCall("list_pets", {}), jsonrpc: "1.0" }],
  ["an id that is an object", toolCall("list_pets", {}, {})],
  ["get_pet with petId '..'", toolCall("get_pet", { petId: ".." })],
  ["an idempotencyKey with CR/LF", toolCall("create_pet", { name: "A", categoryId: 1, idempotencyKey: "a\r\nb" })],
  ["a ping", { jsonrpc: "2.0", id: 1, method: "ping" }],
  ["a body that is not JSON", "{"],
];

describe("the count at /mcp", () => {
  it.each(MESSAGES)("counts %s once against the key's limit", async (_, message) => {
    const limits: string[] = [];
    const bindings = wrapBindings(env, ({ binding }) => void (binding === "RATE_LIMITER" && limits.push(binding)));
    await post(message, { bindings });
    expect(limits).toEqual(["RATE_LIMITER"]);
  });

  it("counts a tool call that runs its operation once, at the door, not again in the operation", async () => {
    const limits: string[] = [];
    const bindings = wrapBindings(env, ({ binding }) => void (binding === "RATE_LIMITER" && limits.push(binding)));
    const { result } = await resultOf(await post(toolCall("list_pets", { limit: 1 }), { bindings }));
    expect(result.isError).toBeUndefined();
    expect(limits).toEqual(["RATE_LIMITER"]);
  });

  it("lets every request through when the limiter fails, as the API does, and logs the fault once each", async () => {
    const down = failing(env, { binding: "RATE_LIMITER", error: new Error("limiter down") });
    const lines = await faultLogLines(async () => {
      expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { bindings: down.env })).status).toBe(200);
      const { result } = await resultOf(await post(toolCall("list_pets", { limit: 1 }), { bindings: down.env }));
      expect(result.isError).toBeUndefined();
    });
    expect(lines).toMatchObject([
      { dependency: "RATE_LIMITER", outcome: "failed open: not counted" },
      { dependency: "RATE_LIMITER", outcome: "failed open: not counted" },
    ]);
  });

  it(`refuses the ${150 + 1}st request of a minute whatever the ${150} before held: HTTP 429, or a tool call's 429`, async () => {
    expect(TEST_RATE_LIMIT).toBe(150);
    const { ping, tool } = await inOneLimiterWindow(async () => {
      const busy = await createApiKey("busy agent");
      for (let sent = 0; sent < 150; sent += MESSAGES.length) {
        const batch = MESSAGES.slice(0, Math.min(MESSAGES.length, 150 - sent));
        const answers = await Promise.all(batch.map(([, message]) => post(message, { key: busy })));
        for (const answer of answers) expect(answer.status).not.toBe(429);
      }
      return {
        ping: await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { key: busy }),
        tool: await post(toolCall("list_pets", { limit: 1 }), { key: busy }),
      };
    });
    expect(ping.status).toBe(429);
    expect(ping.headers.get("Retry-After")).toBe("60");
    const { error } = await resultOf(tool);
    expect(error).toMatchObject({ code: "rate_limited", status: 429, retryAfter: 60 });
  });
});

describe("a tool call's access line", () => {
  const lineOf = async (message: unknown, options: CallOptions = {}) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await post(message, { ...options, bindings: { ...(options.bindings ?? env), ACCESS_LOG: "json" } });
    const lines = log.mock.calls.map(([line]) => JSON.parse(String(line)));
    log.mockRestore();
    expect(lines).toHaveLength(1);
    return lines[0];
  };

  it("carries the operation's status and errorCode, as an HTTP caller's does, and the /mcp answer's as httpStatus", async () => {
    const reader = await createApiKey("reader", { scopes: ["read"] });
    const refused = await lineOf(toolCall("create_pet", { name: "A", categoryId: 1 }), { key: reader });
    expect(refused).toMatchObject({
      route: "/mcp",
      tool: "create_pet",
      status: 403,
      errorCode: "forbidden",
      httpStatus: 403,
    });
    const invalid = await lineOf(toolCall("list_pets", { limit: "5" }));
    expect(invalid).toMatchObject({ tool: "list_pets", status: 400, errorCode: "invalid_request", httpStatus: 200 });
    const idempotencyKey = crypto.randomUUID();
    await post(toolCall("create_pet", { name: "A", categoryId: 1, idempotencyKey }));
    const reused = await lineOf(toolCall("create_pet", { name: "B", categoryId: 1, idempotencyKey }));
    expect(reused).toMatchObject({ status: 422, errorCode: "idempotency_key_reused" });
    const listed = await lineOf(toolCall("list_pets", { limit: 1 }));
    expect(listed).toMatchObject({ tool: "list_pets", status: 200, httpStatus: 200 });
    expect(listed.errorCode).toBeUndefined();
  });

  it("carries a throttled tool call's 429", async () => {
    // A limiter that says no, as the real one does past the limit: the door's count is the one.
    const refusing = { ...env, RATE_LIMITER: { limit: async () => ({ success: false }) } };
    const line = await lineOf(toolCall("list_pets", { limit: 1 }), { bindings: refusing });
    expect(line).toMatchObject({ tool: "list_pets", status: 429, errorCode: "rate_limited", httpStatus: 200 });
  });
});
