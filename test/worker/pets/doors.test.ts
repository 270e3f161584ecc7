import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ErrorBody } from "../../../src/schemas";
import { answerAtDeadline } from "../../helpers/deadline";
import { type CallOptions, call, countPets, createApiKey, createPet, faultLogLines } from "../../helpers/index";
import { postMcp, resultOf, toolCall } from "../../helpers/mcp-calls";
import { failing } from "../../helpers/wrap-bindings";

// One operation behind both doors (src/core/operation.ts): for each rule, the refusal that
// the HTTP door writes as its Error body is the one a tool call returns as its error result,
// code, status and words (a field is named as its door names it: a body field, an argument).
// The scope's refusal is the one a tool call answers in HTTP, for MCP's scope challenge.

/** docs/architecture.md: a query that has not answered within 5 s */
const D1_DEADLINE_MS = 5000;

let writer: string;
let reader: string;
let petId: number;
beforeAll(async () => {
  writer = await createApiKey("both doors");
  reader = await createApiKey("both doors, read only", { scopes: ["read"] });
  petId = (await createPet(writer, { name: "Door Rex", categoryId: 1 })).id;
});
afterEach(() => vi.useRealTimers());

type Asked = { key: string; options?: CallOptions };
type Both = { http: (asked: Asked) => Promise<Response>; tool: (asked: Asked) => Promise<Response> };

const createBoth = (pet: Record<string, unknown>, idempotencyKey?: string): Both => ({
  http: ({ key, options }) =>
    call("/v1/pets", {
      key,
      method: "POST",
      json: pet,
      ...options,
      headers: { ...(idempotencyKey && { "Idempotency-Key": idempotencyKey }), ...options?.headers },
    }),
  tool: ({ key, options }) =>
    postMcp(key, toolCall("create_pet", { ...pet, ...(idempotencyKey && { idempotencyKey }) }), options),
});
const getBoth = (): Both => ({
  http: ({ key, options }) => call(`/v1/pets/${petId}`, { key, ...options }),
  tool: ({ key, options }) => postMcp(key, toolCall("get_pet", { petId }), options),
});

/** The refusal each door answers, as an Error body: the HTTP one's, and the tool result's. */
const refusals = async (both: Both, asked: Asked) => {
  const http = await both.http(asked);
  const httpBody = (await http.json()) as ErrorBody;
  expect(httpBody.status).toBe(http.status);
  const { result, error } = await resultOf(await both.tool(asked));
  expect(result.isError).toBe(true);
  const { retryAfter, ...toolBody } = error as ErrorBody & { retryAfter?: number };
  const httpRetryAfter = http.headers.get("Retry-After");
  expect(retryAfter).toBe(httpRetryAfter === null ? undefined : Number(httpRetryAfter));
  return { http: httpBody, tool: toolBody as ErrorBody };
};

describe("the same refusal from the HTTP door and from a tool", () => {
  it("of the scope: a read-only key may not create, and nothing is stored; at /mcp, as HTTP 403 with MCP's scope challenge", async () => {
    const before = await countPets();
    const both = createBoth({ name: "Nope", categoryId: 1 });
    const http = await both.http({ key: reader });
    const tool = await both.tool({ key: reader });
    const body = {
      code: "forbidden",
      status: 403,
      message: "This API key does not have the 'write' scope, which this operation needs.",
    };
    expect(http.status).toBe(403);
    expect(await http.json()).toEqual(body);
    expect(tool.status).toBe(403);
    expect(await tool.json()).toEqual(body);
    // The scopes to sign in with again: every one, as the 401 names.
    expect(tool.headers.get("WWW-Authenticate")).toBe(
      'Bearer realm="petstore", error="insufficient_scope", scope="read write", resource_metadata="https://petstore.test/.well-known/oauth-protected-resource/mcp"',
    );
    expect(await countPets()).toBe(before);
  });

  it.each([
    ["a member repeated", '{"name":"A","name":"B","categoryId":1}'],
    ["a wrong type", '{"name":"A","categoryId":"1"}'],
    ["an unknown member", '{"name":"A","categoryId":1,"colour":"red"}'],
  ])("of the scope, ahead of every rule on the input (%s): 403 from both doors, and nothing stored", async (_, pet) => {
    const before = await countPets();
    const http = await call("/v1/pets", {
      key: reader,
      method: "POST",
      body: pet,
      headers: { "Content-Type": "application/json" },
      outsideContract: "an ill-formed body, refused by scope first",
    });
    expect([http.status, ((await http.json()) as ErrorBody).code]).toEqual([403, "forbidden"]);
    const message = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_pet","arguments":${pet}}}`;
    const tool = await postMcp(reader, message);
    expect([tool.status, ((await tool.json()) as ErrorBody).code]).toEqual([403, "forbidden"]);
    expect(tool.headers.get("WWW-Authenticate")).toMatch(/error="insufficient_scope"/);
    // With the scope, the same arguments meet their rules: a tool error, not the 403.
    const { result } = await resultOf(await postMcp(writer, message));
    expect(result.isError).toBe(true);
    expect(await countPets()).toBe(before);
  });

  it("of validation: the same rule, naming the field as each door does", async () => {
    const before = await countPets();
    const { http, tool } = await refusals(createBoth({ name: "   ", categoryId: 1 }), { key: writer });
    expect(http).toMatchObject({
      code: "invalid_request",
      status: 400,
      message: expect.stringMatching(/^Body field 'name' /),
    });
    expect(tool).toEqual({ ...http, message: http.message.replace(/^Body field/, "Argument") });
    expect(await countPets()).toBe(before);
  });

  it("of an idempotency key reused with another pet: 422 from each, the first pet kept", async () => {
    const key = crypto.randomUUID();
    await createBoth({ name: "First", categoryId: 1 }, key).http({ key: writer });
    const before = await countPets();
    const { http, tool } = await refusals(createBoth({ name: "Second", categoryId: 1 }, key), { key: writer });
    expect(http).toEqual({
      code: "idempotency_key_reused",
      status: 422,
      message: "This Idempotency-Key was already used with a different request body; use a new key for a new pet.",
    });
    expect(tool).toEqual(http);
    expect(await countPets()).toBe(before);
  });

  it("of a brownout of getPet: 410 from each, inside its window, and the pet from each outside it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const options = { bindings: { ...env, GET_PET_BROWNOUTS: "2029-06-02T14:00:00Z/PT1H" } };
    vi.setSystemTime(new Date("2029-06-02T14:30:00Z"));
    const { http, tool } = await refusals(getBoth(), { key: reader, options });
    expect(http).toEqual({
      code: "gone",
      status: 410,
      message:
        "GET /v1/pets/{petId} is switched off until 2029-06-02T15:00:00.000Z, a reminder that it will be removed on 5 December 2030; use GET /v1/pets with the status filter instead.",
    });
    expect(tool).toEqual(http);
    vi.setSystemTime(new Date("2029-06-02T15:00:00Z"));
    expect((await getBoth().http({ key: reader, options })).status).toBe(200);
    expect((await resultOf(await getBoth().tool({ key: reader, options }))).result.isError).toBeUndefined();
  });

  it(`of a D1 deadline: a create that D1 does not answer within ${D1_DEADLINE_MS} ms is 503 from each, saying it may have been created`, async () => {
    const hungAnswer = async (send: Both["http"]) => {
      const hung = failing(env, { binding: "DB", sql: /"pets"/, error: "hangs" });
      const answer = await answerAtDeadline(
        () => send({ key: writer, options: { bindings: hung.env } }),
        () => hung.calls.length,
        D1_DEADLINE_MS,
      );
      vi.useRealTimers();
      return answer;
    };
    const both = createBoth({ name: "Hung", categoryId: 1 });
    let answered: Awaited<ReturnType<typeof refusals>> | undefined;
    const lines = await faultLogLines(async () => {
      answered = await refusals(
        { http: () => hungAnswer(both.http), tool: () => hungAnswer(both.tool) },
        { key: writer },
      );
    });
    const fault = { dependency: "D1", outcome: "503, not retried: may have committed" };
    expect(lines).toMatchObject([fault, fault]);
    const { http, tool } = answered ?? expect.unreachable();
    expect(http).toEqual({
      code: "unavailable",
      status: 503,
      message:
        "The database is unavailable for a moment; retry in 3 seconds. The pet may have been created: retry with an Idempotency-Key, so that the retry cannot create it twice.",
    });
    expect(tool).toEqual(http);
  });
});
