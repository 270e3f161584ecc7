import { expect, it } from "vitest";
import { call, countPets, createApiKey, expectError, faultLogLines } from "../../helpers/index";
import { petsDatabase } from "../../helpers/segments";

// The next test file starts without the trigger below (test/helpers/apply-migrations.ts drops it).
it("stores no pet when its idempotency record cannot be written after the insert", async () => {
  const key = await createApiKey();
  // Fails the batch's last statement, after the pet row was inserted: a crash
  // between the two writes.
  await petsDatabase().exec(
    "CREATE TRIGGER fail_record BEFORE INSERT ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'simulated crash'); END",
  );
  const before = await countPets();
  const lines = await faultLogLines(async () => {
    const response = await call("/v1/pets", {
      method: "POST",
      key,
      json: { name: "Rex", categoryId: 1 },
      headers: { "Idempotency-Key": "atomic" },
    });
    await expectError(response, 500, "internal_error");
  });
  expect(lines).toEqual([
    expect.objectContaining({ level: "error", cause: expect.stringContaining("simulated crash") }),
  ]);
  expect(await countPets()).toBe(before);
  const next = await call("/v1/pets", { method: "POST", key, json: { name: "Tom", categoryId: 1 } });
  expect(next.status).toBe(201);
});
