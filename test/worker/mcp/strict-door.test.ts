import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type CallOptions, call, countPets, createApiKey } from "../../helpers/index";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { wrapBindings } from "../../helpers/wrap-bindings";

// /mcp is as strict a door as POST /v1/pets and GET /v1/pets: each request counts once at
// the door, whatever it holds; a tool's arguments are checked by the operation's own rules
// before anything runs, and what they refuse is a tool error naming the argument; a tool
// call's access line carries its operation's status and code.

const MCP = "MCP's JSON-RPC over HTTP, which the MCP specification describes, not openapi.json";
const { TEST_RATE_LIMIT } = env as Cloudflare.Env & { TEST_RATE_LIMIT: number };
let key: string;
beforeAll(async () => {
  key = await createApiKey("strict door");
});
afterEach(() => vi.restoreAllMocks());

const post = (body: unknown, options: CallOptions = {}) =>
  call("/mcp", {
    key,
    method: "POST",
    outsideContract: MCP,
    ...(typeof body === "string" ? { body, headers: { "Content-Type": "application/json" } } : { json: body }),
    ...options,
  });
const toolCall = (name: string, args: unknown, id: unknown = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
type ToolResult = { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
/** The tool's result, and the Error body it holds when it is an error. */
const resultOf = async (response: Response) => {
  expect(response.status).toBe(200);
  const { result } = (await response.json()) as { result: ToolResult };
  return { result, error: result.isError ? JSON.parse(result.content[0]?.text ?? "") : undefined };
};
const expectRefusedArgument = async (response: Response, message: RegExp) => {
  const { result, error } = await resultOf(response);
  expect(result.isError).toBe(true);
  expect(error).toMatchObject({ code: "invalid_request", status: 400, message: expect.stringMatching(message) });
};

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

  it(`refuses the ${150 + 1}st request of a minute whatever the ${150} before held: HTTP 429, or a tool call's 429`, {
    timeout: 30_000,
  }, async () => {
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

describe("a tool's arguments", () => {
  it.each([
    ["idempotencyKey", { name: "A", categoryId: 1, idempotencyKey: "a\r\nb" }],
    ["idempotencyKey", { name: "A", categoryId: 1, idempotencyKey: "a\u0000b" }],
    ["idempotencyKey", { name: "A", categoryId: 1, idempotencyKey: null }],
    ["idempotencyKey", { name: "A", categoryId: 1, idempotencyKey: ["k"] }],
    ["idempotencyKey", { name: "A", categoryId: 1, idempotencyKey: 12345 }],
    ["idempotencyKey", { name: "A", categoryId: 1, idempotencyKey: "  k  " }],
    ["categoryId", { name: "A", categoryId: "1" }],
    ["name", { name: 5, categoryId: 1 }],
    ["owner", { name: "A", categoryId: 1, owner: "me" }],
  ])("refuses create_pet's %s as POST /v1/pets would, creating nothing: %j", async (argument, args) => {
    const before = await countPets();
    await expectRefusedArgument(await post(toolCall("create_pet", args)), new RegExp(`'${argument}'`));
    expect(await countPets()).toBe(before);
  });

  it.each([
    ["limit", { limit: "5" }],
    ["limit", { limit: 0 }],
    ["limit", { limit: 101 }],
    ["status", { status: "lost" }],
    ["cursor", { cursor: 5 }],
    ["cursor", { cursor: "abc" }],
    ["petId", { petId: 1 }],
  ])("refuses list_pets' %s: %j", async (argument, args) => {
    await expectRefusedArgument(await post(toolCall("list_pets", args)), new RegExp(`'${argument}'`));
  });

  it.each([".", "..", "1", 0, 1.5, -1, 2 ** 53])(
    "refuses get_pet's petId %j: it takes a positive integer",
    async (petId) => {
      await expectRefusedArgument(await post(toolCall("get_pet", { petId })), /'petId'/);
    },
  );

  it("allows what the operation allows: the limit's bounds, and a key quoted as the header may be", async () => {
    for (const limit of [1, 100]) {
      const { result } = await resultOf(await post(toolCall("list_pets", { limit })));
      expect(result.isError).toBeUndefined();
    }
    const args = { name: "Quoted", categoryId: 1, idempotencyKey: `"${crypto.randomUUID()} x"` };
    const { result } = await resultOf(await post(toolCall("create_pet", args)));
    expect(result.structuredContent).toMatchObject({ name: "Quoted" });
  });

  it("refuses a status nested 30,000 deep as a tool error, and logs no fault", async () => {
    const errors = vi.spyOn(console, "error");
    const deep = `${"[".repeat(30_000)}${"]".repeat(30_000)}`;
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_pets","arguments":{"status":${deep}}}}`;
    await expectRefusedArgument(
      await post(body),
      /^Argument 'status' nests deeper than the 32 levels a message may\.$/,
    );
    expect(errors).not.toHaveBeenCalled();
  });

  it("nests up to 32 levels in a message, and not 33", async () => {
    // The message, params and arguments are three levels; "limit" holds the rest.
    const nested = (levels: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_pets","arguments":{"limit":${"[".repeat(levels - 3)}${"]".repeat(levels - 3)}}}}`;
    await expectRefusedArgument(await post(nested(32)), /^Argument 'limit' must be/);
    await expectRefusedArgument(await post(nested(33)), /^Argument 'limit' nests deeper than the 32 levels/);
  });

  it("applies the API's JSON checks: a repeated member and an inexact integer are refused, nothing created", async () => {
    const before = await countPets();
    const repeated = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_pet","arguments":{"name":"First","name":"Second","categoryId":1}}}`;
    await expectRefusedArgument(await post(repeated), /^The arguments repeat the member 'name'\.$/);
    const inexact = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_pet","arguments":{"name":"Rex","categoryId":1.0000000000000001}}}`;
    await expectRefusedArgument(
      await post(inexact),
      /^Argument 'categoryId' holds 1\.0000000000000001, which is not an integer/,
    );
    expect(await countPets()).toBe(before);
    // The same outside the arguments makes the message invalid.
    const twice = `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`;
    const invalid = await post(twice);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { code: -32600, message: "The message repeats a member." } });
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
      httpStatus: 200,
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
