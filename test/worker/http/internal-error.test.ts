import { afterEach, expect, it } from "vitest";
import { call, createApiKey, expectError, faultLogLines } from "../../helpers/index";
import { listedSegmentDatabases } from "../../helpers/segments";

// The test files share the databases, whose schema the migrations made once: the table is
// renamed away in every segment for this test only, and every query of pets fails as if it
// had been dropped.
const renameInEverySegment = (from: string, to: string) =>
  Promise.all(listedSegmentDatabases().map((database) => database.exec(`ALTER TABLE ${from} RENAME TO ${to}`)));
afterEach(() => renameInEverySegment("pets_hidden", "pets"));

it("answers an uncaught exception with a clean 500 that leaks no SQL or stack", async () => {
  const key = await createApiKey();
  await renameInEverySegment("pets", "pets_hidden");
  const lines = await faultLogLines(async () => {
    for (const request of [
      call("/v1/pets", { key }),
      call("/v1/pets", { method: "POST", key, json: { name: "Rex", categoryId: 1 } }),
      call("/v1/pets/1", { key }),
    ]) {
      const response = await request;
      const error = await expectError(response, 500, "internal_error");
      expect(error.message).not.toMatch(/pets|sql|select|insert|table|at /i);
    }
  });
  expect(lines.map((line) => line.level)).toEqual(["error", "error", "error"]);
  // The log keeps the request id, the route, the error and the SQL, but not the values
  // bound to it: the pet's name is user data.
  expect(lines.find((line) => line.method === "POST")).toMatchObject({
    requestId: expect.any(String),
    method: "POST",
    route: "/v1/pets",
    error: "DrizzleQueryError",
    query: expect.stringMatching(/^insert into "pets"/),
    cause: expect.stringContaining("no such table: pets"),
  });
  expect(JSON.stringify(lines)).not.toContain("Rex");
});
