import { describe, expect, it } from "vitest";
import { api, expectError, type Pet, petName } from "../helpers/client";

describe("Idempotency-Key on POST /v1/pets", () => {
  it("replays the first answer for the same body, and refuses another body with 422", async () => {
    const headers = { "Idempotency-Key": `"smoke-test-${crypto.randomUUID()}"` };
    const name = petName("idempotency");
    const first = await api("/v1/pets", { method: "POST", headers, json: { name, categoryId: 2 } });
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const pet = (await first.json()) as Pet;

    // The same pet after validation: another field order and the default status spelt out.
    const same = { status: "available", categoryId: 2, name };
    const replay = await api("/v1/pets", { method: "POST", headers, json: same });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await replay.json()).toEqual(pet);

    const other = await api("/v1/pets", { method: "POST", headers, json: { name, categoryId: 3 } });
    await expectError(other, 422, "idempotency_key_reused");
  });
});
