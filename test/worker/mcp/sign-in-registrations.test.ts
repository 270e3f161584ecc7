import { describe, expect, it } from "vitest";
import { REDIRECT_URI } from "../../helpers/sign-in";
import { freshAddress, metadataOf, register, written } from "./stranger-sign-in";

// What a stranger's registration may hold (src/auth-server/strangers.ts, client-metadata.ts):
// at most 5 KiB of metadata, read by the API's JSON rules, a name that shows as it is. A
// refused one stores nothing: the sign-in Worker runs on the suite's stores, its KV's writes seen.

/** docs/mcp.md: the most bytes of client metadata a registration may send. */
const MAX_REGISTRATION_BYTES = 5120;

describe("a registration's metadata", () => {
  it("is taken at 5 KiB, and refused with 413 one byte over, storing nothing", async () => {
    expect(metadataOf(MAX_REGISTRATION_BYTES)).toHaveLength(MAX_REGISTRATION_BYTES);
    expect((await register(freshAddress(), metadataOf(MAX_REGISTRATION_BYTES))).status).toBe(201);
    written.length = 0;
    const refused = await register(freshAddress(), metadataOf(MAX_REGISTRATION_BYTES + 1));
    expect(refused.status).toBe(413);
    expect(refused.headers.get("Cache-Control")).toBe("no-store");
    expect(await refused.json()).toEqual({
      error: "invalid_client_metadata",
      error_description: "Client metadata may be at most 5120 bytes.",
    });
    expect(written).toEqual([]);
  });
});

describe("a registration's JSON", () => {
  const metadata = (members: string) =>
    `{"redirect_uris":["${REDIRECT_URI}"],"token_endpoint_auth_method":"none"${members ? `,${members}` : ""}}`;

  it("is refused with 400 when it repeats a member or nests past 32 levels, storing nothing", async () => {
    const nested = (levels: number) => `"x":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}`;
    expect((await register(freshAddress(), metadata(nested(32)))).status).toBe(201);
    written.length = 0;
    for (const body of [
      metadata(`"redirect_uris":["https://elsewhere.example/callback"]`),
      metadata(nested(33)),
      metadata('"client_name":"A","client_name":"B"'),
    ]) {
      const refused = await register(freshAddress(), body);
      expect(refused.status, body).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_client_metadata" });
    }
    expect(written).toEqual([]);
  });

  it("is refused a client_name with a control or bidirectional character, storing nothing; any script is taken", async () => {
    written.length = 0;
    for (const name of [
      "A\u0000B",
      "A\u001b[31mB",
      "A\nB",
      "A\u0085B",
      "abc\u202Egpj.exe",
      "A\u2066B",
      "A\u2028B",
      "A\ud800B",
    ]) {
      const refused = await register(freshAddress(), metadata(`"client_name":${JSON.stringify(name)}`));
      expect(refused.status, name).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_client_metadata" });
    }
    expect(written).toEqual([]);
    for (const name of ["Claude", "Агент", "エージェント 🐕", "وكيل"]) {
      expect((await register(freshAddress(), metadata(`"client_name":${JSON.stringify(name)}`))).status, name).toBe(
        201,
      );
    }
  });
});
