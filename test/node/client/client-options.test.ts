import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ClientOptions, createClient, type ErrorCode } from "../../../client/src/index";

// What the client refuses before it sends anything: its options, and a per-call
// Idempotency-Key the API would refuse. Each is a TypeError at once, never a request, never
// a retry, and its message never holds the key.

const KEY = `ps_test_${"Ab3".repeat(16)}x`;
const sent: string[] = [];
const options = (changes: Record<string, unknown> = {}) =>
  ({
    baseUrl: "https://petstore.example/v1",
    apiKey: KEY,
    fetch: async (url: string) => {
      sent.push(url);
      return new Response("[]", { status: 200 });
    },
    ...changes,
  }) as ClientOptions;

describe("createClient", () => {
  it.each([
    ["baseUrl", undefined],
    ["baseUrl", "petstore.example/v1"],
    ["baseUrl", "ftp://petstore.example/v1"],
    ["baseUrl", "https://user:secret@petstore.example/v1"],
    ["baseUrl", "https://petstore.example/v1?env=prod"],
    ["apiKey", undefined],
    ["apiKey", ""],
    ["apiKey", `${KEY}\r\nX-Injected: 1`],
    ["apiKey", ` ${KEY}`],
    ["apiKey", `Bearer ${KEY}`],
    ["apiKey", KEY.slice(0, -1)],
    ["maxRetries", -1],
    ["maxRetries", 1.5],
    ["maxRetries", "2"],
    ["timeoutMs", 0],
    ["maxRetryWaitMs", Number.POSITIVE_INFINITY],
    ["maxResponseBytes", 0],
    ["fetch", "fetch"],
    ["onWarning", {}],
    ["bookmark", "garbage"],
  ])("refuses %s %j at once, naming it, without the key", (name, value) => {
    const refusal = (() => {
      try {
        createClient(options({ [name]: value }));
      } catch (error) {
        return error as Error;
      }
    })();
    expect(refusal).toBeInstanceOf(TypeError);
    expect(refusal?.message).toMatch(new RegExp(`^${name} `));
    expect(refusal?.message).not.toContain(KEY.slice(8, 20));
  });

  it("takes a key from before checksums, and every option at its bound", () => {
    expect(() => createClient(options({ apiKey: KEY.slice(0, -6) }))).not.toThrow();
    expect(() =>
      createClient(options({ maxRetries: 0, maxRetryWaitMs: 0, timeoutMs: 1, maxResponseBytes: 1 })),
    ).not.toThrow();
  });
});

describe("createPet", () => {
  it.each(["", "two words", "line\r\nbreak", "x".repeat(256), "naïve", '"unclosed'])(
    "refuses the Idempotency-Key %j before any request",
    async (idempotencyKey) => {
      const before = sent.length;
      const creating = createClient(options()).createPet({ name: "Rex", categoryId: 1 }, { idempotencyKey });
      await expect(creating).rejects.toThrow(TypeError);
      await expect(creating).rejects.toThrow(/^idempotencyKey /);
      expect(sent).toHaveLength(before);
    },
  );

  it("takes any key the API takes, bare or quoted", async () => {
    const client = createClient(options({ fetch: async () => new Response("{}", { status: 400 }), maxRetries: 0 }));
    for (const idempotencyKey of ["order-1234", "x".repeat(255), '"two words"']) {
      await expect(client.createPet({ name: "Rex", categoryId: 1 }, { idempotencyKey })).rejects.toMatchObject({
        status: 400,
        idempotencyKey,
      });
    }
  });
});

describe("listPets", () => {
  it("refuses cursor: undefined (the last page's nextCursor) rather than start over", async () => {
    const before = sent.length;
    await expect(createClient(options()).listPets({ cursor: undefined })).rejects.toThrow(/^cursor is undefined/);
    expect(sent).toHaveLength(before);
  });
});

// Every ErrorCode with its status (null: the client's own), the type held to it both ways.
const CODES = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
  unknown_code: null,
  unexpected_response: null,
  response_too_large: null,
} satisfies Record<ErrorCode, number | null>;

it("client/README.md lists every ErrorCode, with its status, and no other", () => {
  const readme = readFileSync("client/README.md", "utf8").replace(/\s+/g, " ");
  const list = readme.slice(readme.indexOf("The codes are"), readme.indexOf("## Bookmarks"));
  const listed = [...list.matchAll(/`([a-z_]+)`(?: \((\d{3})[):])?/g)].map(([, code, status]) => [
    code,
    status ? Number(status) : null,
  ]);
  expect(Object.fromEntries(listed)).toEqual(CODES);
});

describe("each answer", () => {
  const answering = (body: string, changes: Record<string, unknown> = {}) => {
    const inits: RequestInit[] = [];
    const client = createClient(
      options({
        maxRetries: 0,
        fetch: async (_: string, init: RequestInit) => {
          inits.push(init);
          return new Response(body, { status: 200 });
        },
        ...changes,
      }),
    );
    return { client, inits };
  };

  it("is read up to maxResponseBytes, then refused as response_too_large", async () => {
    const pets = JSON.stringify([{ id: 1, name: "Rex", categoryId: 1, status: "available" }]);
    await expect(answering(pets, { maxResponseBytes: pets.length }).client.listPets()).resolves.toMatchObject({
      pets: [{ id: 1 }],
    });
    await expect(answering(pets, { maxResponseBytes: pets.length - 1 }).client.listPets()).rejects.toMatchObject({
      code: "response_too_large",
    });
  });

  it("may not redirect: fetch is told not to follow, unless followRedirects", async () => {
    const strict = answering("[]");
    await strict.client.listPets();
    expect(strict.inits[0]?.redirect).toBe("manual");
    const lenient = answering("[]", { followRedirects: true });
    await lenient.client.listPets();
    expect(lenient.inits[0]?.redirect).toBe("follow");
    // A caller's fetch that follows anyway: the answer says it was redirected, and is refused.
    const followed = async () => Object.defineProperty(new Response("[]"), "redirected", { value: true });
    await expect(createClient(options({ fetch: followed, maxRetries: 0 })).listPets()).rejects.toMatchObject({
      code: "unexpected_response",
      message: expect.stringMatching(/^Refused a redirect/),
    });
  });
});
