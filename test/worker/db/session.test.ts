import { beforeAll, describe, expect, it } from "vitest";
import { BOOKMARK, type Pet } from "../../../src/schemas";
import { call, createApiKey, expectError } from "../../helpers/index";
import { withLaggingReplicaBindings } from "../../helpers/lagging-replica";

let key: string;
beforeAll(async () => {
  key = await createApiKey("sessions");
});

describe("D1 sessions and x-d1-bookmark", () => {
  it("returns a bookmark that, sent back, reads the client's own write", async () => {
    const created = await call("/v1/pets", { method: "POST", key, json: { name: "Mine", categoryId: 1 } });
    const bookmark = created.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(BOOKMARK);
    const pet = (await created.json()) as Pet;
    const listed = await call("/v1/pets?limit=100", { key, headers: { "x-d1-bookmark": bookmark ?? "" } });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toContainEqual(pet);
    expect(listed.headers.get("x-d1-bookmark")).toMatch(BOOKMARK);
    expect((listed.headers.get("x-d1-bookmark") ?? "") >= (bookmark ?? "")).toBe(true);
  });

  it("answers a cached pet with the client's bookmark", async () => {
    const created = await call("/v1/pets", { method: "POST", key, json: { name: "Cached", categoryId: 1 } });
    const { id } = (await created.json()) as Pet;
    const bookmark = created.headers.get("x-d1-bookmark") ?? "";
    const response = await call(`/v1/pets/${id}`, { key, headers: { "x-d1-bookmark": bookmark } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-d1-bookmark")).toBe(bookmark);
  });

  it("takes the bookmarks of two segments, 131 characters in all, and no longer a header", async () => {
    const d1 = `${"0".repeat(8)}-${"0".repeat(8)}-${"0".repeat(8)}-${"0".repeat(32)}`;
    const longest = `s0002:${d1},s0001:${d1}`;
    expect(longest).toHaveLength(131);
    expect((await call("/v1/pets", { key, headers: { "x-d1-bookmark": longest } })).status).toBe(200);
    for (const longer of [`s00002:${d1},s0001:${d1}`, `${longest}0`]) {
      expect(longer).toHaveLength(132);
      const refused = await call("/v1/pets", { key, headers: { "x-d1-bookmark": longer } });
      await expectError(refused, 400, "invalid_request");
    }
  });

  it.each([
    "garbage",
    "first-primary",
    "00000000-00000004-00000000",
    `${"0".repeat(8)}-${"0".repeat(8)}-${"0".repeat(8)}-${"g".repeat(32)}`,
  ])("answers 400 naming the header for the malformed bookmark %j", async (bookmark) => {
    for (const [path, init] of [
      ["/v1/pets", {}],
      ["/v1/pets/1", {}],
      ["/v1/pets", { method: "POST", json: { name: "Rex", categoryId: 1 } }],
    ] as const) {
      const response = await call(path, { key, ...init, headers: { "x-d1-bookmark": bookmark } });
      const error = await expectError(response, 400, "invalid_request");
      expect(error.message).toContain("'x-d1-bookmark'");
    }
  });
});

describe("a read replica that lags", () => {
  it("is read without a bookmark, and passed over for the primary with the bookmark of a write", async () => {
    const bindings = await withLaggingReplicaBindings();
    const created = await call("/v1/pets", {
      method: "POST",
      key,
      bindings,
      json: { name: "Written", categoryId: 1, status: "sold" },
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as Pet;
    const bookmark = created.headers.get("x-d1-bookmark") ?? "";
    const names = async (headers: Record<string, string>) =>
      ((await (await call("/v1/pets?status=sold", { key, bindings, headers })).json()) as Pet[]).map(({ id }) => id);
    expect(await names({})).not.toContain(pet.id);
    expect(await names({ "x-d1-bookmark": bookmark })).toContain(pet.id);
  });
});
