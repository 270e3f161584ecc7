import { describe, expect, it } from "vitest";
import { API_KEY_PATTERN, generateApiKey, hashApiKey } from "../src/api-keys";

describe("API keys", () => {
  it("carry a prefix that says which environment they reach", () => {
    expect(generateApiKey("production")).toMatch(/^ps_live_/);
    expect(generateApiKey("staging")).toMatch(/^ps_test_/);
    expect(generateApiKey("development")).toMatch(/^ps_test_/);
  });

  it("are 43 base-62 characters (256 bits) after the prefix, and never repeat", () => {
    const keys = Array.from({ length: 1000 }, () => generateApiKey("development"));
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("use every character of the alphabet", () => {
    const characters = new Set(Array.from({ length: 200 }, () => generateApiKey("development").slice(8)).join(""));
    expect(characters.size).toBe(62);
  });

  it("are stored under their SHA-256 in hex", async () => {
    expect(await hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
