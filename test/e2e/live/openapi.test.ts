import { describe, expect, it } from "vitest";
import { api } from "../helpers/client";

describe("GET /v1/openapi.json", () => {
  it("is public, cacheable for 5 minutes, and 304 to If-None-Match with its ETag", async () => {
    const response = await api("/v1/openapi.json", { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(await response.json()).toMatchObject({
      openapi: expect.stringMatching(/^3\.1\./),
      paths: expect.any(Object),
    });
    // Cloudflare's edge may weaken a strong ETag when it compresses the body; If-None-Match
    // compares weakly, so either form must give the 304.
    const etag = response.headers.get("ETag");
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);

    const revalidated = await api("/v1/openapi.json", { key: null, headers: { "If-None-Match": etag as string } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    const strong = (tag: string | null) => tag?.replace(/^W\//, "");
    expect(strong(revalidated.headers.get("ETag"))).toBe(strong(etag));
  });
});
