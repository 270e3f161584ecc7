import { describe, expect, it } from "vitest";
import {
  API_KEY_PATTERN,
  callerId,
  checksumOf,
  generateApiKey,
  hashApiKey,
  isScope,
  isWellFormedApiKey,
} from "../../../src/keys/api-key";

describe("API keys", () => {
  it("carry a prefix that says which environment they reach", () => {
    expect(generateApiKey("production")).toMatch(/^ps_live_/);
    expect(generateApiKey("staging")).toMatch(/^ps_test_/);
    expect(generateApiKey("development")).toMatch(/^ps_test_/);
  });

  it("are 43 base-62 characters (256 bits) after the prefix, then a checksum of 6, and never repeat", () => {
    const keys = Array.from({ length: 1000 }, () => generateApiKey("development"));
    for (const key of keys) {
      expect(key).toMatch(/^ps_test_[0-9A-Za-z]{49}$/);
      expect(key).toMatch(API_KEY_PATTERN);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("end with the CRC32 of all before it, in base 62 padded to 6 characters, as a scanner can check", () => {
    // CRC32("ps_test_" + "a" * 43) is 0x9115357F by zlib.crc32 (2434086271), "2ejB1z" in base 62.
    const body = `ps_test_${"a".repeat(43)}`;
    expect(checksumOf(body)).toBe("2ejB1z");
    expect(isWellFormedApiKey(`${body}2ejB1z`)).toBe(true);
    // A small CRC is padded with zeros: CRC32("") is 0.
    expect(checksumOf("")).toBe("000000");
  });

  it("whose checksum does not match are told apart offline: a typo, a changed character, a guess", () => {
    const key = generateApiKey("production");
    const typo = `${key.slice(0, 20)}${key[20] === "x" ? "y" : "x"}${key.slice(21)}`;
    const swapped = `${key.slice(0, -1)}${key.at(-1) === "0" ? "1" : "0"}`;
    for (const token of [typo, swapped, `ps_live_${"A".repeat(49)}`]) {
      expect(token).toMatch(API_KEY_PATTERN);
      expect(isWellFormedApiKey(token)).toBe(false);
    }
  });

  it("issued before the checksum (43 characters after the prefix) are still well-formed", () => {
    expect(isWellFormedApiKey(`ps_live_${"A".repeat(43)}`)).toBe(true);
    expect(isWellFormedApiKey(`ps_live_${"A".repeat(44)}`)).toBe(false);
  });

  it("use every character of the alphabet, each as often in their random part (rejection sampling)", () => {
    // 2,000 keys: 86,000 random characters. Each of the 62 is 1/62 of them, ±0.1 point (one
    // standard deviation); the 8 that the bytes 248 to 255 would favour without the
    // rejection would be 15.6% of them rather than 12.9%, many deviations away.
    const random = Array.from({ length: 2000 }, () => generateApiKey("development").slice(8, 51)).join("");
    expect(new Set(random).size).toBe(62);
    const favoured = [...random].filter((character) => "01234567".includes(character)).length / random.length;
    expect(favoured).toBeGreaterThan(0.12);
    expect(favoured).toBeLessThan(0.14);
  });

  it("know their scopes, the caller their records are kept under, and their prefix from the start", () => {
    expect(isScope("read")).toBe(true);
    expect(isScope("write")).toBe(true);
    expect(isScope("admin")).toBe(false);
    expect(callerId({ label: "rolled", createdAt: "2026-01-01T00:00:00Z", keyId: "first" }, "own")).toBe("first");
    expect(callerId({ label: "first", createdAt: "2026-01-01T00:00:00Z" }, "own")).toBe("own");
    const key = generateApiKey("development");
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(isWellFormedApiKey(`x${key}`)).toBe(false);
  });

  it("are stored under their SHA-256 in hex", async () => {
    expect(await hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
