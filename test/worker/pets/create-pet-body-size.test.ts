import { beforeAll, describe, expect, it } from "vitest";
import { call, countPets, createApiKey, expectError } from "../../helpers/index";

let key: string;
beforeAll(async () => {
  key = await createApiKey();
});

const post = (json: unknown, headers?: HeadersInit) => call("/v1/pets", { method: "POST", key, json, headers });
const sendBytes = (body: BodyInit, headers: HeadersInit = { "Content-Type": "application/json" }) =>
  call("/v1/pets", { method: "POST", key, headers, body });

// createPet's body against its bound of 64 KiB, however it is sent: with a Content-Length
// that is true, one that is not, or chunked. The other rules of its bytes: ./create-pet-body.test.ts.

describe("POST /v1/pets, the size of its body", () => {
  it("reads a body of exactly 64 KiB, and answers 413 for one byte more", async () => {
    // A pet with a member the schema does not know, padded to the size: read, then refused for the member.
    const sized = (bytes: number) => {
      const bare = JSON.stringify({ name: "Rex", categoryId: 1, padding: "" });
      return JSON.stringify({ name: "Rex", categoryId: 1, padding: "x".repeat(bytes - bare.length) });
    };
    expect(new TextEncoder().encode(sized(65_536)).length).toBe(65_536);
    const read = await expectError(await sendBytes(sized(65_536)), 400, "invalid_request");
    expect(read.message).toBe("Unknown body field 'padding'.");
    await expectError(await sendBytes(sized(65_537)), 413, "payload_too_large");
  });

  it("answers 413 and stores nothing for a body over 64 KiB", async () => {
    const before = await countPets();
    const response = await post({ name: "Rex", categoryId: 1, padding: "x".repeat(64 * 1024) });
    await expectError(response, 413, "payload_too_large");
    expect(await countPets()).toBe(before);
  });

  it("answers 413 for a body longer than the Content-Length it states, and stores nothing", async () => {
    const before = await countPets();
    const body = JSON.stringify({ name: "Rex", categoryId: 1, padding: "x".repeat(64 * 1024) });
    const response = await sendBytes(body, { "Content-Type": "application/json", "Content-Length": "30" });
    await expectError(response, 413, "payload_too_large");
    expect(await countPets()).toBe(before);
  });

  it("answers 413 for an oversized body streamed without a Content-Length", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(16 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await call("/v1/pets", {
      method: "POST",
      key,
      headers: { "Content-Type": "application/json" },
      body,
    });
    await expectError(response, 413, "payload_too_large");
  });
});
