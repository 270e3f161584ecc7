import { describe, expect, it } from "vitest";
import { answerFrom, recordAnswer, writeBack } from "../../bench/recorded";

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
