import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkReplay, recordAnswers } from "../../../bench/answers";
import { answerFrom, recordAnswer, writeBack } from "../../../bench/recorded";
import type { Target } from "../../../bench/targets";

// The floor under each bench target (bench/recorded.ts): the API's answer, recorded on the
// API's server and written back by another, must be the same bytes, or the floor would
// make the API look cheaper or dearer than it is.

const API = "http://127.0.0.1:8001";
const REFERENCE = "http://127.0.0.1:8002";

const apiAnswer = () =>
  new Response('{"id":7}', {
    status: 201,
    headers: {
      "Content-Type": "application/json",
      Location: `${API}/v1/pets/7`,
      Link: `<${API}/v1/pets?cursor=abc>; rel="next"`,
      "X-Request-Id": "the-api-s-own",
    },
  });

describe("the bench's recorded answers", () => {
  it("are written back by another server with its own origin, the same status, headers and body", async () => {
    const recorded = await recordAnswer(apiAnswer(), API);
    const answer = answerFrom(recorded, REFERENCE);
    const written = writeBack(answer);
    expect(written.status).toBe(201);
    expect(await written.text()).toBe('{"id":7}');
    expect(written.headers.get("Location")).toBe(`${REFERENCE}/v1/pets/7`);
    expect(written.headers.get("Link")).toBe(`<${REFERENCE}/v1/pets?cursor=abc>; rel="next"`);
    expect(written.headers.get("Content-Type")).toBe("application/json");
    // As each of the API's answers, it carries a request id of its own.
    expect(written.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await recordAnswer(writeBack(answer), REFERENCE)).toEqual(recorded);
  });
});

// As wrangler dev does: gzip for a client that asks for it. /chunked streams its body.
const answer = (request: IncomingMessage, response: ServerResponse) => {
  const body = JSON.stringify({ acceptEncoding: request.headers["accept-encoding"] ?? null });
  if (request.headers["accept-encoding"]?.includes("gzip")) {
    response.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip" });
    response.end(gzipSync(body));
  } else if (request.url === "/chunked") {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.write(body.slice(0, 5));
    response.end(body.slice(5));
  } else {
    response.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    response.end(body);
  }
};

describe("the bench's recording of an answer", () => {
  const server = createServer(answer);
  let origin = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const target = (path: string): Target => ({
    name: path,
    url: `${origin}${path}`,
    ok: () => true,
    goal: "memory",
    settleMs: 0,
  });

  it("sends what the load sends (no Accept-Encoding), and keeps how the body was framed", async () => {
    const { plain, chunked } = await recordAnswers({ plain: target("/plain"), chunked: target("/chunked") }, origin);
    expect(plain.body).toBe('{"acceptEncoding":null}');
    expect(plain.headers.map(([name]) => name)).not.toContain("content-encoding");
    expect(plain.framing).toBe("23");
    expect(chunked.framing).toBe("chunked");
    expect(chunked.body).toBe(plain.body);
  });

  it("refuses a floor whose answer is framed otherwise, even with the same bytes", async () => {
    const { plain } = await recordAnswers({ plain: target("/plain") }, origin);
    await expect(checkReplay(target("/plain"), plain, origin)).resolves.toBeUndefined();
    await expect(checkReplay(target("/chunked"), plain, origin)).rejects.toThrow(/does not write back/);
  });
});
