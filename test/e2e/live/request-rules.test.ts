import { describe, expect, it } from "vitest";
import { api, expectError, petName } from "../helpers/client";

// What a request must be: names, query parameters, bounded error messages (the body's
// bytes are in body-bytes.test.ts). Every refused request stores nothing, so these are
// safe against a live deployment.

describe("names", () => {
  it.each([
    ["zero-width spaces", "\u200b\u200b"],
    ["a Hangul filler", "\u3164"],
    ["a right-to-left override", "smoke-test abc\u202Egpj.exe"],
    ["a line separator", "smoke-test a\u2028b"],
  ])("refuses a name of %s", async (_, name) => {
    const error = await expectError(
      await api("/v1/pets", { method: "POST", json: { name, categoryId: 1 } }),
      400,
      "invalid_request",
    );
    expect(error.message).toContain("'name'");
  });

  it("accepts names in right-to-left scripts, with combining marks and joined emoji", async () => {
    for (const suffix of ["שלום", "e\u0301le\u0300ve", "👨\u200D👩\u200D👧"]) {
      const name = `${petName("unicode")} ${suffix}`;
      const response = await api("/v1/pets", { method: "POST", json: { name, categoryId: 1 } });
      expect(response.status).toBe(201);
      expect(((await response.json()) as { name: string }).name).toBe(name);
    }
  });
});

describe("query parameters", () => {
  it.each([
    [
      "POST /v1/pets",
      () => api("/v1/pets?dryRun=1", { method: "POST", json: { name: petName("query"), categoryId: 1 } }),
    ],
    ["GET /v1/pets/{petId}", () => api("/v1/pets/1?fields=name")],
    ["GET /v1/pets", () => api("/v1/pets?stauts=sold")],
  ])("refuses an unknown one on %s", async (_, send) => {
    const error = await expectError(await send(), 400, "invalid_request");
    expect(error.message).toMatch(/^Unknown query parameter '/);
  });

  it("says a repeated one must be given once", async () => {
    const error = await expectError(await api("/v1/pets?limit=1&limit=2"), 400, "invalid_request");
    expect(error.message).toBe("Query parameter 'limit' must be given once.");
  });
});

describe("error messages", () => {
  it("stay under 1 KiB for a body with 5,000 unknown members", async () => {
    const members = Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`u${index}`, index]));
    const response = await api("/v1/pets", {
      method: "POST",
      json: { name: petName("members"), categoryId: 1, ...members },
    });
    const error = await expectError(response, 400, "invalid_request");
    expect(Buffer.byteLength(error.message)).toBeLessThanOrEqual(1024);
    expect(error.message).toMatch(/And 4997 more\.$/);
  });

  it("quote only a short, marked part of a 16 KB unknown path", async () => {
    const error = await expectError(await api(`/v1/${"x".repeat(16 * 1024)}`), 404, "not_found");
    expect(error.message).toBe(`No route matches GET /v1/${"x".repeat(60)}….`);
  });
});
