import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../../../src/keys/api-key";
import { call, countPets, createApiKey, createPet, expectError } from "../../helpers/index";
import { countRoundTrips } from "../../helpers/wrap-bindings";

// What a key may do: its record's scopes, read (GET and HEAD) and write (every other method).

const newPet = { name: "Scoped Rex", categoryId: 1 };

describe("a key's scopes", () => {
  it("let a read-only key list and fetch pets by GET and HEAD, and refuse it createPet with 403 before the body is read or anything stored", async () => {
    const pet = await createPet(await createApiKey("writer"), newPet);
    const reader = await createApiKey("reader", { scopes: ["read"] });
    // docs/keys.md: read is GET and HEAD.
    for (const method of ["GET", "HEAD"]) {
      expect((await call("/v1/pets", { key: reader, method })).status, method).toBe(200);
      expect((await call(`/v1/pets/${pet.id}`, { key: reader, method })).status, method).toBe(200);
    }
    const before = await countPets();
    const counted = countRoundTrips(env);
    const refused = await expectError(
      await call("/v1/pets", { method: "POST", key: reader, json: newPet, bindings: counted.env }),
      403,
      "forbidden",
    );
    expect(refused.message).toBe("This API key does not have the 'write' scope, which this operation needs.");
    // Before any validation: a body that is not even JSON gets the same 403.
    await expectError(
      await call("/v1/pets", {
        method: "POST",
        key: reader,
        body: "{",
        headers: { "Content-Type": "application/json" },
        bindings: counted.env,
      }),
      403,
      "forbidden",
    );
    expect(counted.counts.d1).toBe(0);
    expect(await countPets()).toBe(before);
  });

  it("ask nothing of a method no route answers: a read-only key's DELETE gets the 405 with Allow that any key gets", async () => {
    const reader = await createApiKey("reader of a 405", { scopes: ["read"] });
    const refused = await expectError(
      await call("/v1/pets", { key: reader, method: "DELETE" }),
      405,
      "method_not_allowed",
    );
    expect(refused.message).not.toContain("scope");
  });

  it("let a write-only key create pets, and refuse it listPets and getPet, by GET or HEAD, with 403 naming 'read'", async () => {
    const writer = await createApiKey("writer only", { scopes: ["write"] });
    const pet = await createPet(writer, newPet);
    for (const path of ["/v1/pets", `/v1/pets/${pet.id}`, "/v1/pets?limit=0"]) {
      const refused = await expectError(await call(path, { key: writer }), 403, "forbidden");
      expect(refused.message).toContain("'read'");
    }
    // A HEAD reads too: 403 without a body.
    for (const path of ["/v1/pets", `/v1/pets/${pet.id}`]) {
      expect((await call(path, { key: writer, method: "HEAD" })).status).toBe(403);
    }
  });

  it("are both for a record written before scopes existed (label and creation only)", async () => {
    const key = await createApiKey("before scopes");
    const stored = await env.API_KEYS.get(await hashApiKey(key), "json");
    expect(Object.keys(stored as object).sort()).toEqual(["createdAt", "label"]);
    expect((await call("/v1/pets", { key })).status).toBe(200);
    await createPet(key, newPet);
  });
});
