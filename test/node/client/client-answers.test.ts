import { describe, expect, it } from "vitest";
import { ApiError, createClient, type DeprecationWarning } from "../../../client/src/index";

// What the client makes of an answer it cannot trust: a link that is not a URL, pages that
// would walk forever, a server that echoes the key or sends a code the API does not. Each is
// a typed ApiError or a value, never a TypeError; the key is never in what it keeps. The same
// over HTTP, from the packed client on Node.js 20: test/e2e/local/client-package.test.ts.

const KEY = `ps_test_${"Kq7".repeat(16)}z`;
const PET = { id: 1, name: "Rex", categoryId: 1, status: "available" };
const pet = (id: number) => ({ ...PET, id });

/** A client whose every request gets the next of `answers`, counted. */
const answering = (...answers: (() => Response)[]) => {
  const urls: string[] = [];
  const warnings: DeprecationWarning[] = [];
  const client = createClient({
    baseUrl: "https://petstore.example/prefix/v1",
    apiKey: KEY,
    maxRetries: 0,
    onWarning: (warning) => warnings.push(warning),
    fetch: async (url) => {
      urls.push(url);
      return (answers[Math.min(urls.length, answers.length) - 1] as () => Response)();
    },
  });
  return { client, urls, warnings };
};
const json =
  (body: unknown, headers: Record<string, string> = {}, status = 200) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "X-Request-Id": "req-1", ...headers } });
const walk = async (listing: AsyncIterable<{ id: number }>) => {
  const ids: number[] = [];
  for await (const { id } of listing) ids.push(id);
  return ids;
};

describe("a next link", () => {
  it("resolves against the listing's URL, and gives its cursor", async () => {
    const { client } = answering(json([PET], { Link: '<?limit=1&cursor=abc>; rel="next"' }));
    expect(await client.listPets({ limit: 1 })).toEqual({ pets: [PET], nextCursor: "abc" });
  });

  it.each([
    ["beside a quoted parameter with a comma, before rel", '<?cursor=abc>; title="a, b"; rel="next"'],
    ["beside an escaped quote", '<?cursor=abc>; title="say \\"hi\\", then"; rel=next'],
    ["after another link", '</v1/other>; rel="prev", <?cursor=abc>; rel="next"'],
    ["with its relation in capitals, among others", '<?cursor=abc>; rel="Next successor-version"'],
  ])("is read %s (RFC 8288)", async (_, link) => {
    const { client } = answering(json([PET], { Link: link }));
    expect(await client.listPets()).toEqual({ pets: [PET], nextCursor: "abc" });
  });

  it.each([
    ["not a URL", '<http://[::1>; rel="next"'],
    ["without a cursor", '<?limit=1>; rel="next"'],
    ["in a header that cannot be read to its end", '<?cursor=abc>; title="never closed; rel="next"'],
  ])("%s is the API's not: an ApiError with the answer's request id", async (_, link) => {
    const error = await answering(json([PET], { Link: link }))
      .client.listPets()
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: "unexpected_response",
      message: "The next link is not the API's.",
      requestId: "req-1",
    });
  });
});

describe("a successor link", () => {
  it("is reported resolved, and left out when it is not a URL: the call's value stands", async () => {
    const deprecated = { Deprecation: "@1" };
    const good = answering(json(PET, { ...deprecated, Link: '<../pets>; rel="successor-version"' }));
    await good.client.getPet(1);
    expect(good.warnings[0]?.successor).toBe("https://petstore.example/prefix/v1/pets");
    const bad = answering(json(PET, { ...deprecated, Link: '<http://[::1>; rel="successor-version"' }, 201));
    await expect(bad.client.createPet({ name: "Rex", categoryId: 1 })).resolves.toEqual(PET);
    expect(bad.warnings[0]).toMatchObject({ successor: undefined, message: "createPet is deprecated." });
  });
});

describe("listAllPets", () => {
  it("walks pages by ascending id to the last", async () => {
    const { client, urls } = answering(
      json([pet(1), pet(2)], { Link: '<?cursor=a>; rel="next"' }),
      json([pet(5)], { Link: '<?cursor=b>; rel="next"' }),
      json([]),
    );
    expect(await walk(client.listAllPets())).toEqual([1, 2, 5]);
    expect(urls).toHaveLength(3);
  });

  it("ends at a next link it followed before, however new the ids it brings", async () => {
    const { client, urls } = answering(
      json([pet(1)], { Link: '<?cursor=a>; rel="next"' }),
      json([pet(2)], { Link: '<?cursor=b>; rel="next"' }),
      json([pet(3)], { Link: '<?cursor=a>; rel="next"' }),
      json([pet(4)]),
    );
    const ids: number[] = [];
    const walked = (async () => {
      for await (const { id } of client.listAllPets()) ids.push(id);
    })();
    await expect(walked).rejects.toMatchObject({
      code: "unexpected_response",
      message: "The API sent a next link it had sent before: the walk cannot go on.",
    });
    expect(ids).toEqual([1, 2, 3]);
    expect(urls).toHaveLength(3);
  });

  it.each([
    [
      "an empty page that points on",
      [json([pet(1)], { Link: '<?cursor=a>; rel="next"' }), json([], { Link: '<?cursor=b>; rel="next"' })],
      "The API sent an empty page that points to another.",
    ],
    [
      "a pet again",
      [json([pet(1)], { Link: '<?cursor=a>; rel="next"' }), json([pet(1)], { Link: '<?cursor=b>; rel="next"' })],
      "The API sent a pet again or out of order: the walk cannot go on.",
    ],
    ["pets out of order", [json([pet(3), pet(2)])], "The API sent a pet again or out of order: the walk cannot go on."],
  ])("ends at %s, with an ApiError", async (_, answers, message) => {
    const { client, urls } = answering(...answers);
    await expect(walk(client.listAllPets())).rejects.toMatchObject({ code: "unexpected_response", message });
    expect(urls.length).toBeLessThanOrEqual(2);
  });
});

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
