import { describe, expect, it } from "vitest";
import { answering, json, KEY, PET } from "./answering";

// What the client keeps of a server's words: never its key, however it was echoed or spelled,
// and at most 1,024 characters; a code the API does not send, typed so. The same over HTTP,
// from the packed client on Node.js 20: test/e2e/local/client-package.test.ts.

describe("what the client keeps of a server's words", () => {
  it("never holds the key, however it was echoed", async () => {
    const echoed = `Refused ${KEY} (Bearer ${KEY.slice(0, 20)})`;
    const error = await answering(json({ code: "unauthorized", message: echoed, status: 401 }, {}, 401))
      .client.listPets()
      .catch((caught) => caught);
    expect(error.message).toMatch(/^Refused .*redacted.* \(Bearer .*redacted.*\)$/);
    expect(error.message).not.toContain(KEY.slice(8, 20));
    // A proxy that echoes Authorization into X-Request-Id.
    const idEchoed = await answering(
      json({ code: "unauthorized", message: "No.", status: 401 }, { "X-Request-Id": `Bearer ${KEY}` }, 401),
    )
      .client.listPets()
      .catch((caught) => caught);
    expect(idEchoed.requestId).toMatch(/^Bearer .*redacted/);
    expect(JSON.stringify(idEchoed)).not.toContain(KEY.slice(8));
    const redirect = () => new Response(null, { status: 307, headers: { Location: `https://evil.example/?k=${KEY}` } });
    const refused = await answering(redirect)
      .client.listPets()
      .catch((caught) => caught);
    expect(refused.message).toMatch(
      /^Refused a redirect to https:\/\/evil\.example\/\?k=.*redacted.*: the API never redirects/,
    );
    expect(refused.message).not.toContain(KEY.slice(8, 20));
    const successor = answering(
      json(PET, { Sunset: "Thu, 05 Dec 2030 00:00:00 GMT", Link: `</v1/pets?k=${KEY}>; rel="successor-version"` }),
    );
    await successor.client.getPet(1);
    expect(JSON.stringify(successor.warnings)).not.toContain(KEY.slice(8));
  });

  it("never holds its own key percent-encoded, split, or in base64, in the message, the request id or the code", async () => {
    const secret = KEY.slice(8);
    const percent = [...KEY].map((character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`).join("");
    // Split by a space, and by a dash and a line break as a JSON text escapes it (a header holds no line break).
    const split = `${KEY.slice(0, 20)} ${KEY.slice(20, 35)}-\\n${KEY.slice(35)}`;
    const spellings = [
      ["percent-encoded in part", encodeURIComponent(`Bearer ${KEY}`).replace("ps_", "ps%5f")],
      ["percent-encoded whole", percent],
      ["lower case", KEY.toLowerCase()],
      ["split", split],
      ...[0, 1, 2].map((offset) => [`in base64 at offset ${offset}`, btoa(`${"B".repeat(offset)}${KEY}!`)]),
      ["in base64 of Basic", btoa(`user:${KEY}`)],
      ["in URL-safe base64", btoa(`x${KEY}`).replaceAll("+", "-").replaceAll("/", "_")],
    ];
    for (const [how, spelled] of spellings) {
      const answer = json(
        { code: spelled, message: `Refused: ${spelled}.`, status: 401 },
        { "X-Request-Id": `id ${spelled}` },
        401,
      );
      const error = await answering(answer)
        .client.listPets()
        .catch((caught) => caught);
      expect(error.code, how).toBe("unknown_code");
      const kept = JSON.stringify([error.message, error.requestId]);
      expect(kept, how).toContain("[redacted]");
      for (const form of [secret, secret.toLowerCase(), btoa(KEY).slice(4, 40), percent.slice(30, 60)]) {
        expect(kept.toLowerCase(), how).not.toContain(form.toLowerCase());
      }
    }
  });

  it("keeps at most 1024 characters of a message", async () => {
    const message = (length: number) => json({ code: "not_found", message: "m".repeat(length), status: 404 }, {}, 404);
    const kept = async (length: number) =>
      (
        await answering(message(length))
          .client.getPet(1)
          .catch((caught) => caught)
      ).message;
    expect(await kept(1024)).toBe("m".repeat(1024));
    expect(await kept(1025)).toBe(`${"m".repeat(1024)}…`);
  });

  it("types a code the API does not send as unknown_code, naming it; the API's own pass as they are", async () => {
    const teapot = json({ code: "teapot", message: "Short and stout.", status: 418 }, {}, 418);
    await expect(answering(teapot).client.listPets()).rejects.toMatchObject({
      status: 418,
      code: "unknown_code",
      message: "Code 'teapot', which the API does not send: Short and stout.",
    });
    const gone = json({ code: "gone", message: "Removed.", status: 410 }, {}, 410);
    await expect(answering(gone).client.getPet(1)).rejects.toMatchObject({ code: "gone", message: "Removed." });
  });
});
