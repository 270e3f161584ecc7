import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../src/http/errors";
import { argumentsProblem } from "../../../src/mcp/tool";
import { checkArguments } from "../../../src/mcp/tools";
import { type CallOptions, countPets, createApiKey } from "../../helpers/index";
import { expectRefusedArgument, postMcp, resultOf, toolCall } from "../../helpers/mcp-calls";

// A tool's arguments are checked by its operation's own rules before anything runs (as
// POST /v1/pets and GET /v1/pets check theirs), and what they refuse is a tool error naming
// the argument: never a 500, never a request to another route, nothing stored.

let key: string;
beforeAll(async () => {
  key = await createApiKey("mcp arguments");
});
afterEach(() => vi.restoreAllMocks());
const post = (body: unknown, options: CallOptions = {}) => postMcp(key, body, options);

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
    await expectRefusedArgument(await post(body), /^Argument 'status' cannot nest deeper than 32 levels\.$/);
    expect(errors).not.toHaveBeenCalled();
  });

  it("nests up to 32 levels in a message, and not 33", async () => {
    // The message, params and arguments are three levels; "limit" holds the rest.
    const nested = (levels: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_pets","arguments":{"limit":${"[".repeat(levels - 3)}${"]".repeat(levels - 3)}}}}`;
    await expectRefusedArgument(await post(nested(32)), /^Argument 'limit' must be/);
    await expectRefusedArgument(await post(nested(33)), /^Argument 'limit' cannot nest deeper than 32 levels/);
  });

  it("applies the API's JSON checks: a repeated member and an inexact integer are refused, nothing created", async () => {
    const before = await countPets();
    const repeated = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_pet","arguments":{"name":"First","name":"Second","categoryId":1}}}`;
    await expectRefusedArgument(await post(repeated), /^The arguments cannot repeat the member 'name'\.$/);
    const inexact = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_pet","arguments":{"name":"Rex","categoryId":1.0000000000000001}}}`;
    await expectRefusedArgument(
      await post(inexact),
      /^Argument 'categoryId' cannot hold 1\.0000000000000001, which is not an integer/,
    );
    expect(await countPets()).toBe(before);
    // The same outside the arguments makes the message invalid.
    const twice = `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`;
    const invalid = await post(twice);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      error: { code: -32600, message: "The message cannot repeat the member 'id'." },
    });
  });
});

describe("the arguments' words", () => {
  it("take each tool's arguments as its operation does, get_pet's petId too", () => {
    expect(checkArguments("get_pet", { petId: 3 })).toEqual({ petId: 3 });
    // limit's default, as the query's: the operation is handed the same input from either door.
    expect(checkArguments("list_pets", {})).toEqual({ limit: 20 });
  });

  it("say what a cursor must be", () => {
    const refused = checkArguments("list_pets", { cursor: "" });
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toBe(
      "Argument 'cursor' must be the cursor of a next link from a previous page.",
    );
  });

  it("name the argument a JSON problem is in, or the arguments as a whole", () => {
    expect(argumentsProblem({ kind: "deep", path: ["params", "arguments"] }).message).toBe(
      "The arguments cannot nest deeper than 32 levels.",
    );
    expect(argumentsProblem({ kind: "deep", path: ["params", "arguments", "status", 0] }).message).toBe(
      "Argument 'status' cannot nest deeper than 32 levels.",
    );
    expect(argumentsProblem({ kind: "repeated", path: ["params", "arguments", "name"] }).message).toBe(
      "The arguments cannot repeat the member 'name'.",
    );
    expect(
      argumentsProblem({ kind: "inexact", path: ["params", "arguments", "categoryId"], token: "1.0000000000000001" })
        .message,
    ).toBe(
      "Argument 'categoryId' cannot hold 1.0000000000000001, which is not an integer but would be read as one: send it without a fractional part.",
    );
  });
});
