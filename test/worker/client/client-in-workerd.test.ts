import { describe, expect, it } from "vitest";
import { createClient, type DeprecationWarning, type Pet } from "../../../client/src/index";
import { BASE_URL, createApiKey, send } from "../../helpers/index";

// The client (client/) inside workerd, as another Worker calls the API: its fetch is
// the Worker's, here through the same send() as every other test (so every answer is
// also checked against openapi.json).

describe("the client in a Worker", () => {
  it("creates, walks and gets pets, and warns once of getPet's deprecation", async () => {
    const warnings: DeprecationWarning[] = [];
    const client = createClient({
      baseUrl: `${BASE_URL}/v1`,
      apiKey: await createApiKey("the client in a Worker"),
      fetch: (input, init) => send(new Request(input, init)),
      onWarning: (warning) => warnings.push(warning),
    });
    const created: Pet[] = [];
    for (const name of ["Worker Rex", "Worker Tom", "Worker Kit"])
      created.push(await client.createPet({ name, categoryId: 2 }));
    const walked: Pet[] = [];
    for await (const pet of client.listAllPets({ limit: 1 })) walked.push(pet);
    expect(walked).toEqual(created);
    expect(await client.getPet(created[0]?.id ?? 0)).toEqual(created[0]);
    expect(warnings.map(({ operation, sunset }) => [operation, sunset?.toISOString()])).toEqual([
      ["getPet", "2030-12-05T00:00:00.000Z"],
    ]);
  });
});
