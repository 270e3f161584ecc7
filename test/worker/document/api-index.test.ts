import { describe, expect, it } from "vitest";
import { BASE_URL, call } from "../../helpers/index";

// The bare addresses, `/` and `/v1` (src/document/api-index.ts): a small JSON index, with no
// key, whose relative references resolve, against the address asked, to the reference page
// and the OpenAPI document; RFC 8631's Link header says the same.

const INDEX = "The index of the bare address is not in openapi.json, which describes /v1's operations";

describe.each(["/", "/v1"])("GET %s", (path) => {
  it("answers an index whose links resolve to the reference page, the document, the pets and /mcp", async () => {
    const response = await call(path, { key: null, outsideContract: INDEX });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    const index = (await response.json()) as Record<string, string>;
    const at = (reference: string | undefined) => new URL(reference ?? "", `${BASE_URL}${path}`).pathname;
    expect([at(index.docs), at(index.openapi), at(index.pets), at(index.mcp)]).toEqual([
      "/v1/docs",
      "/v1/openapi.json",
      "/v1/pets",
      "/mcp",
    ]);
    expect(response.headers.get("Link")).toBe('<v1/openapi.json>; rel="service-desc", <v1/docs>; rel="service-doc"');
    const docs = await call(at(index.docs), { key: null });
    expect(docs.status).toBe(200);
    await docs.arrayBuffer();
  });
});
