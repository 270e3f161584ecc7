import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, countPets, createApiKey, expectError } from "../../helpers/index";

let key: string;
beforeAll(async () => {
  key = await createApiKey();
});

const post = (json: unknown, headers?: HeadersInit) => call("/v1/pets", { method: "POST", key, json, headers });

// createPet's body as bytes, and what comes with it: malformed JSON, charsets, encodings,
// sizes, a query string.

describe("POST /v1/pets, the bytes of its body", () => {
  afterEach(() => vi.restoreAllMocks());

  it("parses the body once, and creates the pet it holds", async () => {
    const name = `Parsed once ${crypto.randomUUID()}`;
    const parse = vi.spyOn(JSON, "parse");
    const response = await post({ name, categoryId: 1, status: "available" });
    const body = JSON.stringify({ name, categoryId: 1, status: "available" });
    const parsesOfBody = parse.mock.calls.filter(([text]) => text === body);
    vi.restoreAllMocks();
    expect(response.status).toBe(201);
    expect(((await response.json()) as { name: string }).name).toBe(name);
    expect(parsesOfBody).toHaveLength(1);
  });

  it.each(["{", '{"name": "Rex",}', "", "nul", '{"name":"Rex","categoryId":1}x'])(
    "answers 400 for the malformed JSON body %j",
    async (text) => {
      const before = await countPets();
      const response = await call("/v1/pets", {
        method: "POST",
        key,
        headers: { "Content-Type": "application/json" },
        body: text,
      });
      const error = await expectError(response, 400, "invalid_request");
      expect(error.message).toBe("The request body is not valid JSON.");
      expect(await countPets()).toBe(before);
    },
  );

  it("answers 400 for a POST with no body at all", async () => {
    const response = await call("/v1/pets", { method: "POST", key, headers: { "Content-Type": "application/json" } });
    const error = await expectError(response, 400, "invalid_request");
    expect(error.message).toBe("The request body is not valid JSON.");
  });

  it.each([
    ["no Content-Type", undefined],
    ["text/plain", "text/plain"],
    ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded"],
    ["multipart/form-data", "multipart/form-data; boundary=x"],
  ])("answers 415 for a body sent with %s", async (_, contentType) => {
    const headers = new Headers();
    if (contentType) headers.set("Content-Type", contentType);
    const response = await call("/v1/pets", {
      method: "POST",
      key,
      headers,
      body: new TextEncoder().encode('{"name":"Rex","categoryId":1}'),
    });
    await expectError(response, 415, "unsupported_media_type");
  });

  const sendBytes = (body: BodyInit, headers: HeadersInit = { "Content-Type": "application/json" }) =>
    call("/v1/pets", { method: "POST", key, headers, body });

  it("answers 400 naming the problem and stores nothing for a body that is not UTF-8", async () => {
    const before = await countPets();
    const latin1 = Uint8Array.from(
      [...'{"name":"Caf', 0xe9, ...'","categoryId":1}'].map((c) => (typeof c === "number" ? c : c.charCodeAt(0))),
    );
    const error = await expectError(await sendBytes(latin1), 400, "invalid_request");
    expect(error.message).toBe("The request body is not valid UTF-8.");
    expect(await countPets()).toBe(before);
  });

  it.each(["iso-8859-1", "utf-16", '"latin1"'])("answers 415 for a JSON body in charset %s", async (charset) => {
    const response = await sendBytes('{"name":"Rex","categoryId":1}', {
      "Content-Type": `application/json; charset=${charset}`,
    });
    const error = await expectError(response, 415, "unsupported_media_type");
    expect(error.message).toContain("UTF-8");
  });

  it.each(["gzip", "br", "deflate, gzip"])("answers 415 for a body with Content-Encoding %s", async (encoding) => {
    const response = await sendBytes('{"name":"Rex","categoryId":1}', {
      "Content-Type": "application/json",
      "Content-Encoding": encoding,
    });
    const error = await expectError(response, 415, "unsupported_media_type");
    expect(error.message).toContain("Content-Encoding");
  });

  it("reads a body nested 32 levels deep, and answers 400 for 33 without reading further, storing nothing (docs/api.md)", async () => {
    // The body is one level; "name" holds the rest.
    const nested = (levels: number) => `{"name":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)},"categoryId":1}`;
    const before = await countPets();
    const read = await expectError(await sendBytes(nested(32)), 400, "invalid_request");
    expect(read.message).toMatch(/^Body field 'name' must be/);
    const refused = await expectError(await sendBytes(nested(33)), 400, "invalid_request");
    expect(refused.message).toBe("Body field 'name' cannot nest deeper than 32 levels.");
    expect(await countPets()).toBe(before);
  });

  it.each([
    ['{"name":"A","name":"B","categoryId":1}', "name"],
    ['{"name":"A","categoryId":1,"\\u006eame":"B"}', "name"],
    ['{"name":"A","categoryId":1,"extra":{"x":1,"y":[{"z":1,"z":2}]}}', "z"],
  ])("answers 400 naming the repeated member, and stores nothing, for %s", async (body, member) => {
    const before = await countPets();
    const error = await expectError(await sendBytes(body), 400, "invalid_request");
    expect(error.message).toBe(`The request body cannot repeat the member '${member}'.`);
    expect(await countPets()).toBe(before);
  });

  it("keeps an error message under 1 KiB however many fields are wrong, naming the first few", async () => {
    const members = Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`u${index}`, index]));
    const error = await expectError(await post({ name: "Rex", categoryId: 1, ...members }), 400, "invalid_request");
    expect(new TextEncoder().encode(error.message).length).toBeLessThanOrEqual(1024);
    expect(error.message).toBe(
      "Unknown body field 'u0'. Unknown body field 'u1'. Unknown body field 'u2'. And 4997 more.",
    );
    const long = await expectError(
      await post({ name: "Rex", categoryId: 1, ["x".repeat(10_000)]: 1 }),
      400,
      "invalid_request",
    );
    expect(long.message).toBe(`Unknown body field '${"x".repeat(40)}…'.`);
  });

  it("refuses a query parameter, since createPet reads none", async () => {
    const response = await call("/v1/pets?dryRun=true", { method: "POST", key, json: { name: "Rex", categoryId: 1 } });
    const error = await expectError(response, 400, "invalid_request");
    expect(error.message).toBe("Unknown query parameter 'dryRun'.");
  });

  it("answers 415 for a Content-Type that names its charset twice, even utf-8 first", async () => {
    for (const contentType of [
      "application/json; charset=utf-8; charset=latin1",
      "application/json;charset=utf-8;charset=utf-8",
    ]) {
      const response = await post({ name: "Rex", categoryId: 1 }, { "Content-Type": contentType });
      expect((await expectError(response, 415, "unsupported_media_type")).message).toBe(
        "The Content-Type must name its charset once.",
      );
    }
  });

  it.each([
    ["a charset parameter", { "Content-Type": "application/json; charset=utf-8" }],
    ["a space before the parameter", { "Content-Type": "application/json ; charset=UTF-8" }],
    ["a +json type", { "Content-Type": "application/vnd.api+json" }],
    ["Content-Encoding identity", { "Content-Type": "application/json", "Content-Encoding": " IDENTITY " }],
  ])("accepts JSON sent with %s", async (_, headers) => {
    const response = await post({ name: "Rex", categoryId: 1 }, headers);
    expect(response.status).toBe(201);
  });

  it.each(["application/jsonx", "x-application/json", "application/+json", "text/json"])(
    "answers 415 for the media type %s, which only looks like JSON's",
    async (contentType) => {
      const response = await post({ name: "Rex", categoryId: 1 }, { "Content-Type": contentType });
      expect((await expectError(response, 415, "unsupported_media_type")).message).toBe(
        "The request body must be sent as application/json.",
      );
    },
  );

  it("reads a body that starts with a byte order mark, as RFC 8259 allows", async () => {
    const response = await sendBytes('\uFEFF{"name":"Rex","categoryId":1}');
    expect(response.status).toBe(201);
  });

  it("words a problem outside any field as the body's own", async () => {
    const error = await expectError(await sendBytes("1.0000000000000001"), 400, "invalid_request");
    expect(error.message).toBe(
      "The request body cannot hold 1.0000000000000001, which is not an integer but would be read as one: send it without a fractional part.",
    );
  });
});
