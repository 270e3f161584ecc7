import { beforeAll, describe, expect, it } from "vitest";
import { apiTargets, check, type Target } from "../../../bench/targets";
import { BASE_URL, createApiKey, createPet, send } from "../../helpers/index";
import { MCP } from "../../helpers/mcp-calls";

// The bench's tool calls through /mcp (bench/targets.ts) are judged against their operations
// over HTTP: they must be what an agent of the current revision sends, answered with a
// result, or the bench would count a refusal. The bench checks each answer before its load;
// here the same checks run on the API in workerd, and refuse what is not a result.

let key: string;
beforeAll(async () => {
  key = await createApiKey("bench tool calls");
  // A full first page and one pet more, as the bench seeds at the least.
  for (let index = 0; index < 21; index++) await createPet(key, { name: `Seeded ${index}`, categoryId: 1 });
});

const targetsWith = (authorization: string) => apiTargets(BASE_URL, { Authorization: authorization }, 21);
const sendToApi = (url: string | URL | Request, init?: RequestInit) =>
  send(new Request(url, init), { outsideContract: MCP });

describe("the bench's tool calls", () => {
  it.each(["listPetsTool", "createPetTool"] as const)("%s gets a tool result, as the bench checks", async (name) => {
    await expect(check(targetsWith(`Bearer ${key}`)[name], sendToApi)).resolves.toBeUndefined();
  });

  it.each(["listPetsTool", "createPetTool"] as const)("%s's check refuses an answer that is not one", async (name) => {
    const refused: Target = targetsWith("Bearer not-a-key")[name];
    await expect(check(refused, sendToApi)).rejects.toThrow(/answered 401/);
    const target = targetsWith(`Bearer ${key}`)[name];
    await expect(check({ ...target, body: "{}" }, sendToApi)).rejects.toThrow(/answered 400/);
    // A tool error is a 200 too: its result, isError, is refused.
    const message = JSON.parse(target.body);
    message.params.arguments = { limit: 0, name: "" };
    await expect(check({ ...target, body: JSON.stringify(message) }, sendToApi)).rejects.toThrow(/answered 200/);
  });
});
