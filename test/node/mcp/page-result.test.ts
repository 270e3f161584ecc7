import { describe, expect, it } from "vitest";
import type { PetsPage } from "../../../src/core/list-pets";
import { keptJsonText } from "../../../src/lib/json-text";
import { pageResult } from "../../../src/mcp/tools";

// list_pets' value, and the text it goes on the wire as (src/mcp/reply-text.ts): for a page from
// memory, written around the page's kept text, it is still JSON.stringify's text of the value.

const pets = [
  { id: 1, name: 'Rex "the" dog', categoryId: 2, status: "available" as const },
  { id: 2, name: "Tom\n\u2028", categoryId: 3, status: "sold" as const },
];

describe("list_pets' value", () => {
  it.each<[string, PetsPage]>([
    ["with a next cursor", { pets, nextCursor: "MS4y.x-_", fromCache: true }],
    ["on the last page", { pets, fromCache: true }],
    ["empty", { pets: [], fromCache: true }],
  ])("from memory, %s: its kept text is JSON.stringify's", (_, page) => {
    const value = pageResult(page);
    expect(value).toEqual({ pets: page.pets, ...(page.nextCursor && { nextCursor: page.nextCursor }) });
    expect(keptJsonText(value)).toBe(JSON.stringify(value));
    // The same page again is the same value, its text kept once.
    expect(pageResult({ ...page })).toBe(value);
  });

  it("from memory, with another next cursor (a rotated secret's): a value of its own", () => {
    const page = pets.map((pet) => ({ ...pet }));
    const before = pageResult({ pets: page, nextCursor: "MS4y.before", fromCache: true });
    const after = pageResult({ pets: page, nextCursor: "MS4y.after", fromCache: true });
    expect(after).not.toBe(before);
    expect(keptJsonText(after)).toBe(JSON.stringify({ pets: page, nextCursor: "MS4y.after" }));
  });

  it("from D1, is written by JSON.stringify when it goes out: no text is kept ahead", () => {
    const fromD1 = pets.map((pet) => ({ ...pet }));
    const value = pageResult({ pets: fromD1, nextCursor: "MS4y.x-_", fromCache: false });
    expect(value).toEqual({ pets: fromD1, nextCursor: "MS4y.x-_" });
    expect(keptJsonText(value)).toBeUndefined();
    expect(keptJsonText(fromD1)).toBeUndefined();
    expect(pageResult({ pets: fromD1, nextCursor: "MS4y.x-_", fromCache: false })).not.toBe(value);
  });
});
