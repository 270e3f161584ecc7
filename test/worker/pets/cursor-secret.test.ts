import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Pet } from "../../../src/schemas";
import { call, createApiKey, createPet, expectError, faultLogLines, nextQuery } from "../../helpers/index";

// The secret that signs cursors: its length, its rotation (docs/operations.md, "Rotating
// CURSOR_SECRET"), and what a deployment without a usable one answers. The cursors
// themselves: ./pagination.test.ts.

let key: string;
let created: Pet[];

beforeAll(async () => {
  key = await createApiKey();
  created = [];
  // More pets than the largest limit below, so that every listing has a next page to sign.
  for (let index = 0; index < 20; index++) created.push(await createPet(key, { name: `Pet ${index}`, categoryId: 1 }));
});

describe("the cursor secret", () => {
  const OLD = "old-cursor-secret-0123456789abcdef";
  const NEW = "new-cursor-secret-0123456789abcdef";

  /** listPets with other secrets than the suite's. */
  const listWith = (secrets: Partial<Cloudflare.Env> & { CURSOR_SECRET_PREVIOUS?: string }, query: string) =>
    call(`/v1/pets?${query}`, { key, bindings: { ...env, ...secrets } });
  // Each case uses a limit of its own, so that no case reads a page that another one cached.
  const cursorOf = async (response: Response) => nextQuery(response)?.get("cursor") ?? "";

  it("keeps the cursors handed out before a rotation valid while CURSOR_SECRET_PREVIOUS holds the old secret", async () => {
    const cursor = await cursorOf(await listWith({ CURSOR_SECRET: OLD }, "limit=7"));
    const rotated = await listWith({ CURSOR_SECRET: NEW, CURSOR_SECRET_PREVIOUS: OLD }, `limit=7&cursor=${cursor}`);
    expect(((await rotated.json()) as Pet[])[0]).toEqual(created[7]);
    const afterwards = await listWith({ CURSOR_SECRET: NEW }, `limit=7&cursor=${cursor}`);
    await expectError(afterwards, 400, "invalid_request");
  });

  it.each([
    ["missing", { CURSOR_SECRET: "" }, "limit=8", "CURSOR_SECRET"],
    ["shorter than 32 bytes", { CURSOR_SECRET: "too-short-a-secret" }, "limit=9", "CURSOR_SECRET"],
  ])("answers 500 and names the problem in the log when the %s", async (_, secrets, query, name) => {
    const lines = await faultLogLines(async () => {
      await expectError(await listWith(secrets, query), 500, "internal_error");
    });
    expect(lines).toEqual([
      expect.objectContaining({
        error: `Error: ${name} is missing or shorter than 32 bytes: set it (docs/operations.md, "The first deploy of an environment").`,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain("too-short-a-secret");
  });

  // A secret's length is counted in UTF-8 bytes: 16 'é' are 32 bytes, in 16 characters.
  it.each([
    ["32 ASCII characters", "a".repeat(32), "limit=11"],
    ["16 two-byte characters", "é".repeat(16), "limit=12"],
  ])("signs and reads cursors with a secret of exactly 32 bytes: %s", async (_, secret, query) => {
    const cursor = await cursorOf(await listWith({ CURSOR_SECRET: secret }, query));
    expect((await listWith({ CURSOR_SECRET: secret }, `${query}&cursor=${cursor}`)).status).toBe(200);
    const rotated = await listWith({ CURSOR_SECRET: NEW, CURSOR_SECRET_PREVIOUS: secret }, `${query}&cursor=${cursor}`);
    expect(rotated.status).toBe(200);
  });

  it.each([
    ["31 ASCII characters", "a".repeat(31)],
    ["15 two-byte characters and one", `${"é".repeat(15)}a`],
  ])("refuses a secret of 31 bytes, %s, as shorter than 32", async (_, secret) => {
    const lines = await faultLogLines(async () => {
      await expectError(await listWith({ CURSOR_SECRET: secret }, "limit=13"), 500, "internal_error");
    });
    expect(lines).toMatchObject([
      { error: expect.stringContaining("CURSOR_SECRET is missing or shorter than 32 bytes") },
    ]);
  });

  it("answers 500 naming CURSOR_SECRET when a cursor comes while it is missing", async () => {
    const cursor = await cursorOf(await listWith({ CURSOR_SECRET: OLD }, "limit=14"));
    const lines = await faultLogLines(async () => {
      await expectError(await listWith({ CURSOR_SECRET: "" }, `limit=14&cursor=${cursor}`), 500, "internal_error");
    });
    expect(lines).toMatchObject([{ error: expect.stringMatching(/^Error: CURSOR_SECRET is missing/) }]);
  });

  it("ignores a CURSOR_SECRET_PREVIOUS shorter than 32 bytes: another secret's cursor is 400, never 500; logged once per isolate", async () => {
    const cursor = await cursorOf(await listWith({ CURSOR_SECRET: OLD }, "limit=10"));
    const short = { CURSOR_SECRET: NEW, CURSOR_SECRET_PREVIOUS: "short" };
    const lines = await faultLogLines(async () => {
      for (let request = 0; request < 2; request++) {
        await expectError(await listWith(short, `limit=2&cursor=${cursor}`), 400, "invalid_request");
      }
    });
    expect(lines).toEqual([
      {
        level: "error",
        message: "CURSOR_SECRET_PREVIOUS is shorter than 32 bytes: ignored, so cursors signed with it are refused",
      },
    ]);
  });
});
