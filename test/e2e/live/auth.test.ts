import { describe, expect, it } from "vitest";
import { api, apiKey, expectError } from "../helpers/client";

// Bearer keys (RFC 6750), as a client without one, or with a wrong one, meets them.

const UNKNOWN_KEY = `ps_test_${"0".repeat(43)}`;

describe("authentication", () => {
  const INVALID = 'Bearer realm="petstore", error="invalid_token", error_description="The API key is not valid"';
  it.each([
    ["no key", null, 'Bearer realm="petstore"'],
    ["an unknown key", UNKNOWN_KEY, INVALID],
    ["a malformed key", "not-a-key", INVALID],
  ])("answers 401 with a challenge and an Error body to %s", async (_, key, challenge) => {
    const response = await api("/v1/pets", { key });
    const body = await expectError(response, 401, "unauthorized");
    expect(body.status).toBe(response.status);
    expect(response.headers.get("WWW-Authenticate")).toBe(challenge);
  });

  it("refuses before it validates: an invalid body without a key is 401, not 400", async () => {
    const response = await api("/v1/pets", { key: null, method: "POST", json: { name: "" } });
    await expectError(response, 401, "unauthorized");
  });

  it("accepts the scheme in any case", async () => {
    const response = await api("/v1/pets?limit=1", { key: null, headers: { Authorization: `bEaReR ${apiKey}` } });
    expect(response.status).toBe(200);
  });
});
