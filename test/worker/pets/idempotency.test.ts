import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../../src/index";
import type { Pet } from "../../../src/schemas";
import { call, countPets, createApiKey, expectError } from "../../helpers/index";
import { petsDatabase } from "../../helpers/segments";

let key: string;
beforeAll(async () => {
  key = await createApiKey("idempotency");
});
afterEach(() => {
  vi.useRealTimers();
});

const rex = { name: "Rex", categoryId: 4 };
const post = (idempotencyKey: string, json: unknown = rex, apiKey = key) =>
  call("/v1/pets", { method: "POST", key: apiKey, json, headers: { "Idempotency-Key": idempotencyKey } });

describe("POST /v1/pets with Idempotency-Key", () => {
  it("creates the pet once and answers a retry with the same status, body and Location", async () => {
    const before = await countPets();
    const first = await post("retry-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const pet = (await first.json()) as Pet;
    const retry = await post("retry-1");
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(pet);
    expect(retry.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await countPets()).toBe(before + 1);
  });

  it("records the key and the pet together", async () => {
    const pet = (await (await post("recorded")).json()) as Pet;
    const row = await petsDatabase()
      .prepare("select pet_id from idempotency_keys where idempotency_key = ?")
      .bind("recorded")
      .first();
    expect(row).toEqual({ pet_id: pet.id });
  });

  it("treats a body that validates to the same pet as the same request", async () => {
    const pet = await (await post("same-pet", { name: "Tom", categoryId: 2 })).json();
    const retry = await post("same-pet", { status: "available", categoryId: 2, name: "Tom" });
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(pet);
  });

  it("takes the key as a structured-field string, quoted or bare", async () => {
    const pet = await (await post('"quoted key"')).json();
    expect(await (await post('"quoted key"')).json()).toEqual(pet);
    const bare = await (await post("bare-key")).json();
    expect(await (await post('"bare-key"')).json()).toEqual(bare);
    const escaped = await (await post('"a \\"b\\" \\\\c"')).json();
    expect(await (await post('"a \\"b\\" \\\\c"')).json()).toEqual(escaped);
  });

  it("answers 422 and stores nothing when the key comes back with another body", async () => {
    await post("reused");
    const before = await countPets();
    const response = await post("reused", { name: "Another", categoryId: 4 });
    const error = await expectError(response, 422, "idempotency_key_reused");
    expect(error.message).toContain("Idempotency-Key");
    expect(await countPets()).toBe(before);
  });

  it("scopes keys to the API key that sent them", async () => {
    const other = await createApiKey("other team");
    const mine = (await (await post("shared-name")).json()) as Pet;
    const theirs = await post("shared-name", { name: "Different", categoryId: 9 }, other);
    expect(theirs.status).toBe(201);
    expect(((await theirs.json()) as Pet).id).not.toBe(mine.id);
  });

  it("creates a new pet once the key is older than 24 hours", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const first = (await (await post("day-old")).json()) as Pet;
    // 24 hours to the millisecond: still the same request.
    vi.advanceTimersByTime(24 * 60 * 60 * 1000);
    const sameDay = await post("day-old");
    expect(sameDay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(((await sameDay.json()) as Pet).id).toBe(first.id);
    vi.advanceTimersByTime(1);
    const second = await post("day-old", { name: "Later", categoryId: 1 });
    expect(second.status).toBe(201);
    expect(((await second.json()) as Pet).id).toBeGreaterThan(first.id);
    const replay = await post("day-old", { name: "Later", categoryId: 1 });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it.each([
    ["255 characters, the most a key may have", "k".repeat(255)],
    ["255 characters quoted", `"${"q".repeat(255)}"`],
  ])("accepts a key of %s", async (_, value) => {
    expect((await post(value)).status).toBe(201);
  });

  it.each([
    ["empty", ""],
    ["an empty quoted string", '""'],
    ["quoted, of 256 characters", `"${"q".repeat(256)}"`],
    ["longer than 255 characters", "k".repeat(256)],
    ["a bare value with a space", "two words"],
    ["an unterminated quoted string", '"open'],
    ["a quoted string with a bad escape", '"a\\b"'],
  ])("answers 400 naming the header when it is %s", async (_, value) => {
    const before = await countPets();
    const error = await expectError(await post(value), 400, "invalid_request");
    expect(error.message).toContain("'idempotency-key'");
    expect(await countPets()).toBe(before);
  });
});

describe("the hourly prune", () => {
  it("deletes idempotency records older than 24 hours and keeps the others", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await post("old-record");
    vi.advanceTimersByTime(23 * 60 * 60 * 1000);
    await post("young-record");
    vi.advanceTimersByTime(2 * 60 * 60 * 1000);
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }), env);
    const { results } = await petsDatabase()
      .prepare("select idempotency_key from idempotency_keys where idempotency_key in ('old-record', 'young-record')")
      .all();
    expect(results).toEqual([{ idempotency_key: "young-record" }]);
  });
});
