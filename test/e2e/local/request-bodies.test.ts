import { describe, expect, it } from "vitest";
import { api, chunkedPost, expectError, httpRequest, petName, rawHttp } from "../helpers/client";

// Request bodies at the limit, over it and of the wrong type, through the HTTP server of
// wrangler's test harness (the runtime of `wrangler dev`): 64 KiB uploads and refused
// writes are for a local server, not for a smoke test of a live deployment.

const MAX_BODY_BYTES = 65_536;

/** A valid pet as JSON, padded with white space (which JSON allows) to exactly `bytes` bytes. */
const petBody = (bytes: number) => {
  const json = JSON.stringify({ name: petName("body size"), categoryId: 1 });
  return json + " ".repeat(bytes - Buffer.byteLength(json));
};

describe("POST /v1/pets body size", () => {
  it("accepts a body of exactly 64 KiB", async () => {
    const response = await api("/v1/pets", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: petBody(MAX_BODY_BYTES),
    });
    expect(response.status).toBe(201);
  });

  it("answers 413 to one byte more sent with a Content-Length, then serves the next request", async () => {
    const [tooLarge, next, ...more] = await rawHttp([
      httpRequest("POST", "/v1/pets", { "Content-Type": "application/json" }, petBody(MAX_BODY_BYTES + 1)),
      httpRequest("GET", "/v1/pets?limit=1", { Connection: "close" }),
    ]);
    await expectError(tooLarge as Response, 413, "payload_too_large");
    expect(next?.status).toBe(200);
    expect(Array.isArray(await next?.json())).toBe(true);
    expect(more).toEqual([]);
  });
});

describe("POST /v1/pets media type", () => {
  it("answers 415 to a JSON body sent as text/plain", async () => {
    const response = await api("/v1/pets", {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ name: petName("text/plain"), categoryId: 1 }),
    });
    await expectError(response, 415, "unsupported_media_type");
  });
});

describe("POST /v1/pets bodies over the limit, however they are sent", () => {
  const KIB = Buffer.alloc(1024, " ");

  it.each([
    ["chunked, in 16 KiB chunks", Array.from({ length: 5 }, () => Buffer.concat(Array(16).fill(KIB))), 0],
    ["slowly, 8 KiB every 50 ms", Array.from({ length: 10 }, () => Buffer.concat(Array(8).fill(KIB))), 50],
    ["chunked, 20 MiB", Array.from({ length: 320 }, () => Buffer.concat(Array(64).fill(KIB))), 0],
  ])("answers 413 with the Error body to a body sent %s, then serves the next request", async (_, chunks, pauseMs) => {
    const [answer, ...more] = await chunkedPost("/v1/pets", chunks as Buffer[], pauseMs as number);
    await expectError(answer as Response, 413, "payload_too_large");
    expect(more).toEqual([]);
    expect((await api("/v1/pets?limit=1")).status).toBe(200);
  });

  it("answers 413 every time, not now and then (no 503, no reset)", async () => {
    const chunks = Array.from({ length: 5 }, () => Buffer.concat(Array(16).fill(KIB)));
    const statuses = [];
    for (let attempt = 0; attempt < 10; attempt++) statuses.push((await chunkedPost("/v1/pets", chunks))[0]?.status);
    expect(statuses).toEqual(Array(10).fill(413));
  });
});
