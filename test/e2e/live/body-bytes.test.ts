import { describe, expect, it } from "vitest";
import { api, expectError, httpRequest, petName, rawHttp } from "../helpers/client";

// The bytes of a request body as a client on a real connection sends them: encodings,
// charsets, repeated member names. Refused requests store nothing, so these are safe
// against a live deployment. Prism's validating proxy (npm run test:contract) parses
// and re-serializes JSON bodies, so these bytes could not reach the API through it: that
// project leaves this file out.

const post = (body: string | Uint8Array, headers: Record<string, string> = {}) =>
  api("/v1/pets", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });

describe("POST /v1/pets body bytes", () => {
  it("answers 400 to a body that is not UTF-8 (a Latin-1 é), naming the problem", async () => {
    const name = petName("latin1");
    const body = Buffer.concat([
      Buffer.from(`{"name":"${name} Caf`),
      Buffer.from([0xe9]),
      Buffer.from('","categoryId":1}'),
    ]);
    const error = await expectError(await post(body), 400, "invalid_request");
    expect(error.message).toBe("The request body is not valid UTF-8.");
    const stored = (await (await api("/v1/pets?limit=100")).json()) as { name: string }[];
    expect(stored.some((pet) => pet.name.startsWith(name))).toBe(false);
  });

  it.for(["iso-8859-1", "utf-16", "windows-1252"])(
    "answers 415 to a JSON body declared as charset=%s",
    async (charset) => {
      const body = JSON.stringify({ name: petName("charset"), categoryId: 1 });
      const response = await post(body, { "Content-Type": `application/json; charset=${charset}` });
      await expectError(response, 415, "unsupported_media_type");
    },
  );

  it("accepts charset=utf-8", async () => {
    const body = JSON.stringify({ name: petName("utf-8"), categoryId: 1 });
    expect((await post(body, { "Content-Type": "application/json; charset=UTF-8" })).status).toBe(201);
  });

  it("answers 415 to a compressed body rather than decoding it", async () => {
    const [answer] = await rawHttp([
      httpRequest(
        "POST",
        "/v1/pets",
        { "Content-Type": "application/json", "Content-Encoding": "gzip", Connection: "close" },
        "\u001f\u008b not really gzip",
      ),
    ]);
    const error = await expectError(answer as Response, 415, "unsupported_media_type");
    expect(error.message).toContain("Content-Encoding");
  });

  it("answers 400 to a repeated member name, naming it, whichever one a parser would keep", async () => {
    const body = `{"name":"${petName("first")}","name":"${petName("second")}","categoryId":1}`;
    const error = await expectError(await post(body), 400, "invalid_request");
    expect(error.message).toBe("The request body cannot repeat the member 'name'.");
  });
});
