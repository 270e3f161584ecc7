import { describe, expect, it } from "vitest";
import { checkIdempotencyKey, checkOptions, isPet, isPetList } from "../../../client/src/checks";
import { ApiError, NetworkError, TimeoutError } from "../../../client/src/index";

// The client's own guards, each rule both ways: the options it refuses before it sends
// anything (a TypeError naming the option), and the shape every answer's pets must have.
// Through createClient and over HTTP: client-options.test.ts and client-answers.test.ts.

const KEY = `ps_test_${"a".repeat(43)}`;
const valid = { baseUrl: "https://petstore.example/v1", apiKey: KEY };
const refusal = (options: Record<string, unknown>) => {
  try {
    checkOptions(options);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).message;
  }
};

describe("checkOptions", () => {
  it("takes an http or https base address, and nothing else there", () => {
    expect(refusal(valid)).toBeUndefined();
    expect(refusal({ ...valid, baseUrl: "http://localhost:8787/v1" })).toBeUndefined();
    for (const baseUrl of [
      "ftp://petstore.example/v1",
      "xhttp://petstore.example/v1",
      "httpss://petstore.example/v1",
      "https://user:secret@petstore.example/v1",
      "https://:secret@petstore.example/v1",
      "https://petstore.example/v1?x=1",
      "https://petstore.example/v1#top",
      "not a url",
      42,
      // Only a string: an object that would read as the address (a URL) is not taken for one.
      new URL("https://petstore.example/v1"),
    ]) {
      expect(refusal({ ...valid, baseUrl }), String(baseUrl)).toBe(
        "baseUrl must be the API's http(s) address with /v1, without credentials, query or fragment.",
      );
    }
  });

  it("says a missing key is missing, and a malformed one is not a key", () => {
    for (const apiKey of [undefined, "", 42]) {
      expect(refusal({ ...valid, apiKey }), String(apiKey)).toBe("apiKey is missing: give the API key to send.");
    }
    expect(refusal({ ...valid, apiKey: `${KEY} ` })).toMatch(/^apiKey is not an API key/);
  });

  it("takes whole numbers from each option's least value, and refuses any other", () => {
    for (const [name, least] of [
      ["maxRetries", 0],
      ["timeoutMs", 1],
      ["maxRetryWaitMs", 0],
      ["maxResponseBytes", 1],
    ] as const) {
      expect(refusal({ ...valid, [name]: least }), name).toBeUndefined();
      for (const wrong of [least - 1, least + 0.5, String(least + 1), Number.MAX_SAFE_INTEGER + 1]) {
        expect(refusal({ ...valid, [name]: wrong }), `${name} ${wrong}`).toBe(
          `${name} must be a whole number, at least ${least}.`,
        );
      }
    }
  });

  it("takes functions as fetch, onWarning and sleep, and refuses anything else there", () => {
    for (const name of ["fetch", "onWarning", "sleep"]) {
      expect(refusal({ ...valid, [name]: () => undefined }), name).toBeUndefined();
      expect(refusal({ ...valid, [name]: "a function" }), name).toBe(`${name} must be a function.`);
    }
  });

  it("takes a bookmark as the client gave it, and refuses one that cannot be", () => {
    expect(
      refusal({ ...valid, bookmark: `00000001-00000002-00004e4f-${"0123456789abcdef".repeat(2)}` }),
    ).toBeUndefined();
    const asText = { toString: () => `00000001-00000002-00004e4f-${"0123456789abcdef".repeat(2)}` };
    for (const bookmark of [42, "", "a bookmark\n", asText]) {
      expect(refusal({ ...valid, bookmark }), String(bookmark)).toBe(
        "bookmark must be the client's bookmark of an earlier answer, as it gave it.",
      );
    }
  });
});

describe("checkIdempotencyKey", () => {
  it("takes 1 to 255 printable ASCII characters, bare or quoted, and refuses the rest", () => {
    for (const key of ["k", "x".repeat(255), '"quoted key"']) expect(() => checkIdempotencyKey(key), key).not.toThrow();
    for (const key of [undefined, 42, "", "x".repeat(256), "tab\there", "é"]) {
      expect(() => checkIdempotencyKey(key), String(key)).toThrow(TypeError);
    }
  });
});

describe("isPet and isPetList", () => {
  const pet = { id: 1, name: "Rex", categoryId: 2, status: "available" };

  it("take a pet as the document describes one, and nothing short of it", () => {
    expect(isPet(pet)).toBe(true);
    expect(isPetList([pet, { ...pet, id: 2 }])).toBe(true);
    expect(isPetList([])).toBe(true);
    for (const wrong of [
      null,
      "a pet",
      { ...pet, id: 0 },
      { ...pet, id: -1 },
      { ...pet, id: 1.5 },
      { ...pet, id: "1" },
      { ...pet, name: 7 },
      { ...pet, name: undefined },
      { ...pet, categoryId: 0 },
      { ...pet, status: "lost" },
    ]) {
      expect(isPet(wrong), JSON.stringify(wrong)).toBe(false);
    }
    expect(isPetList([pet, { ...pet, status: "lost" }])).toBe(false);
    expect(isPetList(pet)).toBe(false);
    expect(isPetList({ length: 0 })).toBe(false);
  });
});

describe("the client's errors", () => {
  it("name themselves, so that a log line says which", () => {
    expect(new ApiError(503, "unavailable", "m", undefined, 3).name).toBe("ApiError");
    expect(new NetworkError("down").name).toBe("NetworkError");
    expect(new TimeoutError("no answer within 10000 ms").name).toBe("TimeoutError");
  });
});
