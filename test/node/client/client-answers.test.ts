import { describe, expect, it } from "vitest";
import { ApiError } from "../../../client/src/index";
import { answering, json, PET, pet, walk } from "./answering";

// What the client makes of an answer it cannot trust: a link that is not a URL, pages that
// would walk forever. Each is a typed ApiError or a value, never a TypeError (what it keeps of
// a server's words: ./client-words.test.ts). The same over HTTP, from the packed client on
// Node.js 20: test/e2e/local/client-package.test.ts.

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
