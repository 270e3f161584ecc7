// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote lines of source, template literals included.
// The pets group's survivors (src/core/cursor.ts, src/core/cache.ts) that no test can tell
// apart from the code, each with why.

import { alike, type Equivalent } from "./equivalent";

export const PETS_EQUIVALENTS: Equivalent[] = [
  ...alike(
    "src/core/cache.ts",
    "IMMUTABLE_PETS_CACHE is on, and test/worker/pets/pet-cache.test.ts keeps it on exactly while no route changes a pet",
    [
      ["if (IMMUTABLE_PETS_CACHE) pets.set(pet.id, pet);", "true"],
      ["if (IMMUTABLE_PETS_CACHE) fullPages.set(key, { pets: page.pets });", "true"],
    ],
  ),
  ...alike("src/core/cache.ts", "a full page holds `limit` pets, at least one: its last is always there", [
    ["return page && { pets: page.pets, nextAfterId: page.pets.at(-1)?.id };", "page.pets.at(-1).id"],
  ]),
  ...alike("src/core/cache.ts", "any text for 'no status' that names no status keeps the pages' keys apart", [
    ['const key = `${status ?? ""}:${afterId}:${limit}`;', '"Stryker was here!"'],
  ]),
  ...alike(
    "src/core/cursor.ts",
    "the same secret imports to the same key: keeping it saves an import per request, and signs and verifies alike",
    [
      ["if (!key) {", "true"],
      [
        'key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [',
        "true",
      ],
      ["keys.set(secret, key);", ";"],
    ],
  ),
  ...alike("src/core/cursor.ts", "base64 has '=' only at its end", [['.replace(/=+$/, "");', "/=+/"]]),
  ...alike(
    "src/core/cursor.ts",
    "counting characters first is a shortcut: a string of at least 32 UTF-16 units is at least 32 UTF-8 bytes, so the byte count decides the rest",
    [
      [
        [
          "if (!secret || (secret.length < MIN_SECRET_BYTES && encoder.encode(secret).length < MIN_SECRET_BYTES)) {",
          17,
        ],
        "true",
      ],
      [
        [
          "if (!secret || (secret.length < MIN_SECRET_BYTES && encoder.encode(secret).length < MIN_SECRET_BYTES)) {",
          17,
        ],
        "secret.length <= MIN_SECRET_BYTES",
      ],
    ],
  ),
  ...alike(
    "src/core/cursor.ts",
    "HMAC is deterministic: a position signed again with the same secret is the same cursor, which the cache only saves computing",
    [
      ["if (known?.secret === secret) return known.cursor;", "false"],
      ["signedCursors.set(text, { secret, cursor });", "{}"],
    ],
  ),
  ...alike(
    "src/core/cursor.ts",
    "only a payload signed with one of the service's secrets reaches the pattern, and the service signs only that shape",
    [
      ["const PAYLOAD_SHAPE = /^1\\.([1-9][0-9]{0,15})\\.([a-z]*)$/;", "/1\\.([1-9][0-9]{0,15})\\.([a-z]*)$/"],
      ["const PAYLOAD_SHAPE = /^1\\.([1-9][0-9]{0,15})\\.([a-z]*)$/;", "/^1\\.([1-9][0-9]{0,15})\\.([a-z]*)/"],
    ],
  ),
  ...alike(
    "src/core/cursor.ts",
    "every door checks a cursor's shape with the same CURSOR_SHAPE (the query's and list_pets' zod schema) before the operation reads it, so the check here never refuses, and a cursor of that shape has both parts",
    [
      ['if (!CURSOR_SHAPE.test(cursor)) throw invalidCursor("is not a cursor this service issued");', "false"],
      ['if (!CURSOR_SHAPE.test(cursor)) throw invalidCursor("is not a cursor this service issued");', '""'],
      ['const [payloadText = "", signatureText = ""] = cursor.split(".");', '"Stryker was here!"'],
    ],
  ),
];
