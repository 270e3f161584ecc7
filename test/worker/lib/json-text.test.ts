import { describe, expect, it } from "vitest";
import { jsonText, keptJsonText } from "../../../src/lib/json-text";

// A cached page's or pet's answer is written from its kept text (src/http/json-answer.ts): the
// answers themselves, from memory and from D1 alike, are compared in test/worker/pets/pet-cache.test.ts.

describe("a value's kept JSON text", () => {
  it("is JSON.stringify's text of the value, written once: the value's later answers get the first text", () => {
    const pets = [{ id: 1, name: 'Rex "the" dog', status: "available" }];
    expect(keptJsonText(pets)).toBeUndefined();
    const text = jsonText(pets);
    expect(text).toBe(JSON.stringify(pets));
    expect(keptJsonText(pets)).toBe(text);
    // Kept, not written again: which is why the value must not change after.
    pets.push({ id: 2, name: "Tom", status: "sold" });
    expect(jsonText(pets)).toBe(text);
  });

  it("is kept per value: an equal value of its own is written anew", () => {
    const value = { a: 1 };
    jsonText(value);
    const twin = { a: 1 };
    expect(keptJsonText(twin)).toBeUndefined();
    expect(jsonText(twin)).toBe('{"a":1}');
  });

  it("is never kept for what is not an object", () => {
    for (const value of [undefined, null, "text", 7]) expect(keptJsonText(value)).toBeUndefined();
  });
});
