import { beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "../../../src/schemas";
import { BOOKMARK } from "../../../src/schemas";
import { call, countPets, createApiKey } from "../../helpers/index";
import { postMcp, resultOf, toolCall } from "../../helpers/mcp-calls";

// What both doors do for every call before its input (src/http/begin-call.ts): the same
// count, the same session, from the same bookmark, said on the answer in the same headers.

let key: string;
beforeAll(async () => {
  key = await createApiKey("plumbing");
});

describe("/mcp and /v1 share the call's plumbing", () => {
  it("state the same rate-limit policy", async () => {
    const http = await call("/v1/pets?limit=1", { key });
    const mcp = await postMcp(key, toolCall("list_pets", { limit: 1 }));
    // vitest.config.ts: RATE_LIMIT_QUOTA is 150 in the tests; the window is 60 s.
    expect(http.headers.get("RateLimit-Policy")).toBe('"per-key";q=150;w=60');
    expect(mcp.headers.get("RateLimit-Policy")).toBe('"per-key";q=150;w=60');
  });

  it("hand back a bookmark, and take one: a tool's create is read through /v1 from it", async () => {
    const created = await postMcp(key, toolCall("create_pet", { name: "Booked", categoryId: 9 }));
    const bookmark = created.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(BOOKMARK);
    const { result } = await resultOf(created);
    const pet = result.structuredContent as { id: number };
    const read = await call(`/v1/pets/${pet.id}`, { key, headers: { "x-d1-bookmark": bookmark ?? "" } });
    expect(read.status).toBe(200);
    const listed = await postMcp(key, toolCall("list_pets", { limit: 1 }), {
      headers: { "x-d1-bookmark": bookmark ?? "" },
    });
    expect(listed.headers.get("x-d1-bookmark")).toMatch(BOOKMARK);
  });

  it("refuse a bookmark D1 did not issue with the same 400, and store nothing", async () => {
    const before = await countPets();
    const headers = { "x-d1-bookmark": "not-a-bookmark" };
    const http = await call("/v1/pets", { key, method: "POST", json: { name: "No", categoryId: 1 }, headers });
    const mcp = await postMcp(key, toolCall("create_pet", { name: "No", categoryId: 1 }), { headers });
    expect(http.status).toBe(400);
    expect(mcp.status).toBe(400);
    const [httpBody, mcpBody] = [(await http.json()) as ErrorBody, (await mcp.json()) as ErrorBody];
    expect(mcpBody).toEqual(httpBody);
    expect(httpBody.code).toBe("invalid_request");
    expect(await countPets()).toBe(before);
  });

  it("say that an idempotent create was a replay: Idempotent-Replayed over HTTP, _meta at /mcp", async () => {
    const idempotencyKey = crypto.randomUUID();
    const create = () => postMcp(key, toolCall("create_pet", { name: "Again", categoryId: 3, idempotencyKey }));
    const first = await resultOf(await create());
    const again = await resultOf(await create());
    expect(again.result.structuredContent).toEqual(first.result.structuredContent);
    expect((first.result as { _meta?: unknown })._meta).toBeUndefined();
    expect((again.result as { _meta?: unknown })._meta).toEqual({ idempotentReplayed: true });
  });
});
