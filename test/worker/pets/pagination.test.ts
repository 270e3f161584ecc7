import { beforeAll, describe, expect, it } from "vitest";
import type { Pet } from "../../../src/schemas";
import { call, createApiKey, createPet, expectError, nextLink, nextQuery, walkPages } from "../../helpers/index";

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
