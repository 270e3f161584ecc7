import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey } from "../../../src/keys/api-key";
import { call, countPets, createApiKey, expectError } from "../../helpers/index";

let key: string;
beforeAll(async () => {
  key = await createApiKey("auth tests");
});

const operations = [
  { name: "listPets", path: "/v1/pets", init: {} },
  { name: "createPet", path: "/v1/pets", init: { method: "POST", json: { name: "Rex", categoryId: 1 } } },
  { name: "getPet", path: "/v1/pets/1", init: {} },
] as const;

// RFC 6750's challenge of each: no error code without credentials, invalid_request for a
// header that is not "Bearer <token>", invalid_token for a token that is no valid key.
const NONE = 'Bearer realm="petstore"';
const MALFORMED =
  'Bearer realm="petstore", error="invalid_request", error_description="Send Authorization: Bearer <key>"';
const INVALID = 'Bearer realm="petstore", error="invalid_token", error_description="The API key is not valid"';
const badCredentials: [string, (key: string) => Record<string, string>, string][] = [
  ["no Authorization header", () => ({}), NONE],
  ["an empty Authorization header", () => ({ Authorization: "" }), NONE],
  ["the Bearer scheme without a token", () => ({ Authorization: "Bearer" }), MALFORMED],
  ["the Bearer scheme with a blank token", () => ({ Authorization: "Bearer   " }), MALFORMED],
  ["a non-Bearer scheme", (key) => ({ Authorization: `Basic ${btoa(`user:${key}`)}` }), MALFORMED],
  ["the key without a scheme", (key) => ({ Authorization: key }), MALFORMED],
  ["two tokens", (key) => ({ Authorization: `Bearer ${key} ${key}` }), MALFORMED],
  ["a token with characters outside b64token", () => ({ Authorization: "Bearer ps_test_<script>" }), MALFORMED],
  [
    "a well-formed key that was never issued",
    () => ({ Authorization: `Bearer ${generateApiKey("development")}` }),
    INVALID,
  ],
  [
    "a key with one character changed",
    (key) => ({ Authorization: `Bearer ${key.slice(0, -1)}${key.endsWith("a") ? "b" : "a"}` }),
    INVALID,
  ],
  ["the key with the production prefix", (key) => ({ Authorization: `Bearer ps_live_${key.slice(8)}` }), INVALID],
  ["an access token, which is no API key", () => ({ Authorization: "Bearer 1f2e3d:grant:secret" }), INVALID],
];

describe.each(operations)("$name without a valid key", ({ path, init }) => {
  it.each(badCredentials)("answers 401 for %s, with its challenge", async (_, credentials, challenge) => {
    const before = await countPets();
    const response = await call(path, { ...init, key: null, headers: credentials(key) });
    await expectError(response, 401, "unauthorized");
    expect(response.headers.get("WWW-Authenticate")).toBe(challenge);
    expect(await countPets()).toBe(before);
  });
});

describe("authentication", () => {
  it("tells a credential without a key's prefix, an access token most likely, that /v1 takes API keys", async () => {
    for (const token of ["1f2e3d:grant:secret", "not-a-key", "PS_TEST_abc"]) {
      const response = await call("/v1/pets", { key: null, headers: { Authorization: `Bearer ${token}` } });
      const { message } = await expectError(response, 401, "unauthorized");
      expect(message).toBe(
        "That is not an API key (ps_live_... or ps_test_...): /v1 takes API keys; an access token from signing in works at /mcp only.",
      );
    }
    for (const prefix of ["ps_test_", "ps_live_"]) {
      const key = await call("/v1/pets", {
        key: null,
        headers: { Authorization: `Bearer ${prefix}${"0".repeat(43)}` },
      });
      expect((await expectError(key, 401, "unauthorized")).message).toBe("The API key is not valid.");
    }
  });

  it("accepts the scheme in any case and extra spaces before the token", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR  "]) {
      const response = await call("/v1/pets", { key: null, headers: { Authorization: `${scheme} ${key}` } });
      expect(response.status).toBe(200);
    }
  });

  it("takes the scheme only at the start of the header", async () => {
    for (const header of [`Xbearer ${key}`, `Token bearer ${key}`]) {
      const response = await call("/v1/pets", { key: null, headers: { Authorization: header } });
      await expectError(response, 401, "unauthorized");
      expect(response.headers.get("WWW-Authenticate")).toContain('error="invalid_request"');
    }
  });

  it("checks the key before validating the request", async () => {
    const response = await call("/v1/pets?limit=0", { key: null });
    await expectError(response, 401, "unauthorized");
    const post = await call("/v1/pets", {
      method: "POST",
      key: null,
      body: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    await expectError(post, 401, "unauthorized");
  });

  it("stores only the SHA-256 of a key, never the key", async () => {
    const listed = await env.API_KEYS.list();
    const names = listed.keys.map(({ name }) => name);
    expect(names).toContain(await hashApiKey(key));
    expect(names.some((name) => name.includes(key))).toBe(false);
  });
});
