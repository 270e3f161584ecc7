import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Pet } from "../../../src/schemas";
import {
  call,
  createApiKey,
  createPet,
  expectError,
  faultLogLines,
  nextLink,
  nextQuery,
  walkPages,
} from "../../helpers/index";

/** docs/api.md: a cursor is at most 108 characters (written here, not imported). */
const CURSOR_MAX_LENGTH = 108;

let key: string;
let created: Pet[];

beforeAll(async () => {
  key = await createApiKey();
  created = [];
  for (let index = 0; index < 12; index++) {
    created.push(
      await createPet(key, { name: `Pet ${index}`, categoryId: 1, status: index < 4 ? "sold" : "available" }),
    );
  }
});

/** Follows rel="next" from `path` to the end; returns every page. */
const walk = (path: string, between?: () => Promise<unknown>) => walkPages(call, path, { key }, between);

describe("GET /v1/pets pagination", () => {
  it("links each page to the next until the collection is exhausted", async () => {
    const pages = await walk("/v1/pets?limit=5");
    expect(pages.map((page) => page.length)).toEqual([5, 5, 2]);
    expect(pages.flat()).toEqual(created);
  });

  it("repeats limit and status in a next link relative to the request, with an opaque cursor, whatever Host says", async () => {
    const response = await call("/v1/pets?status=available&limit=3", { key, headers: { Host: "attacker.example" } });
    expect(nextLink(response)).toMatch(/^\/v1\/pets\?limit=3&status=available&cursor=[A-Za-z0-9_.-]+$/);
  });

  it("walks a filtered listing over matching pets only", async () => {
    const pages = await walk("/v1/pets?status=sold&limit=3");
    expect(pages.flat()).toEqual(created.filter((pet) => pet.status === "sold"));
  });

  it("sends no next link when the page holds the last pets, even when it is full", async () => {
    const response = await call("/v1/pets?status=sold&limit=4", { key });
    expect(await response.json()).toHaveLength(4);
    expect(response.headers.get("Link")).toBeNull();
  });

  it("visits every pet exactly once while other clients insert", async () => {
    let inserted = 0;
    const otherClient = await createApiKey("other client");
    const insertSome = () =>
      Promise.all(
        Array.from({ length: 3 }, () => createPet(otherClient, { name: `Concurrent ${inserted++}`, categoryId: 2 })),
      );
    const [pages] = await Promise.all([walk("/v1/pets?limit=4", insertSome), insertSome()]);
    const ids = pages.flat().map((pet) => pet.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const all = (await walk("/v1/pets?limit=100")).flat();
    // Every pet that existed when the walk began is there, and so is every later one
    // that was committed before the walk reached the end.
    for (const pet of created) expect(ids).toContain(pet.id);
    expect(ids).toEqual(all.map((pet) => pet.id).filter((id) => id <= (ids.at(-1) ?? 0)));
  });

  describe("refuses a cursor it did not issue for this listing", () => {
    let cursor: string;
    beforeAll(async () => {
      const response = await call("/v1/pets?limit=2", { key });
      cursor = nextQuery(response)?.get("cursor") ?? "";
    });

    const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const unusedBitFlipped = (character = "") => BASE64URL[BASE64URL.indexOf(character) ^ 1];
    const tampered = (text: string, index: number) =>
      text.slice(0, index) + (text[index] === "A" ? "B" : "A") + text.slice(index + 1);

    // The query's own check refuses what is not shaped as a cursor; the cursor's, what is.
    const unshaped = "Query parameter 'cursor' must be the cursor of a next link from a previous page.";
    const notIssued = "The value of 'cursor' is not a cursor this service issued.";
    it.each([
      ["malformed", () => "abc", unshaped],
      ["empty", () => "", unshaped],
      ["with a payload of impossible length", () => `a.${"A".repeat(43)}`, notIssued],
      // One character past the document's maxLength, CURSOR_MAX_LENGTH.
      ["longer than any cursor issued", () => `${"A".repeat(CURSOR_MAX_LENGTH - 43)}.${"A".repeat(43)}`, unshaped],
      ["altered in its payload", () => tampered(cursor, 1), notIssued],
      ["altered in its signature", () => tampered(cursor, cursor.length - 5), notIssued],
      [
        "forged with another id",
        () => `${btoa("1.1.").replaceAll("=", "")}${cursor.slice(cursor.indexOf("."))}`,
        notIssued,
      ],
      // 32 bytes take 43 characters, whose last carries 2 bits that decoding drops: this
      // one decodes to the same signature, but is not the cursor that was issued.
      [
        "altered in the unused bits of its last character",
        () => cursor.slice(0, -1) + unusedBitFlipped(cursor.at(-1)),
        notIssued,
      ],
    ])("answers 400 for a cursor %s", async (_, make, message) => {
      const response = await call(`/v1/pets?limit=2&cursor=${encodeURIComponent(make())}`, { key });
      const error = await expectError(response, 400, "invalid_request");
      expect(error.message).toBe(message);
    });

    it("answers 400 for a cursor from another status filter", async () => {
      const response = await call(`/v1/pets?limit=2&status=sold&cursor=${cursor}`, { key });
      const error = await expectError(response, 400, "invalid_request");
      expect(error.message).toBe("The value of 'cursor' belongs to a listing with another status filter.");
    });

    it("accepts the cursor with another limit", async () => {
      const response = await call(`/v1/pets?limit=3&cursor=${cursor}`, { key });
      expect(await response.json()).toEqual(created.slice(2, 5));
    });
  });
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
