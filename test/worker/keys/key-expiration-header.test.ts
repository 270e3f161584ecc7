import { describe, expect, it } from "vitest";
import { KEY_EXPIRATION_HEADER } from "../../../src/http/api-key-auth";
import { call, createApiKey, expectError } from "../../helpers/index";

// A key's expiry, told on every answer past authentication, so that its caller sees it
// coming (the header is exposed to browsers: test/worker/http/cors.test.ts).

describe(`${KEY_EXPIRATION_HEADER}`, () => {
  it("carries a key's expiry as an HTTP date on its answers, errors past authentication included", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000);
    const key = await createApiKey("expires tomorrow", { expiresAt: expiresAt.toISOString() });
    const listed = await call("/v1/pets?limit=1", { key });
    expect(listed.status).toBe(200);
    expect(listed.headers.get(KEY_EXPIRATION_HEADER)).toBe(expiresAt.toUTCString());
    const refused = await call("/v1/pets?limit=0", { key });
    await expectError(refused, 400, "invalid_request");
    expect(refused.headers.get(KEY_EXPIRATION_HEADER)).toBe(expiresAt.toUTCString());
  });

  it("is absent for a key that never expires, and on a 401", async () => {
    const lasting = await call("/v1/pets?limit=1", { key: await createApiKey("lasting") });
    expect(lasting.headers.has(KEY_EXPIRATION_HEADER)).toBe(false);
    expect((await call("/v1/pets", { key: null })).headers.has(KEY_EXPIRATION_HEADER)).toBe(false);
  });
});
