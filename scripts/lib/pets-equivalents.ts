// The pets group's survivors (src/core/cursor.ts, src/core/cache.ts) that no test can tell
// apart from the code, each with why.

import { alike, type Equivalent } from "./equivalent";

export const PETS_EQUIVALENTS: Equivalent[] = [
  ...alike(
    "src/core/cache.ts",
    "IMMUTABLE_PETS_CACHE is on, and test/worker/pets/pet-cache.test.ts keeps it on exactly while no route changes a pet",
    [
      [37, "true"],
      [70, "true"],
    ],
  ),
  ...alike("src/core/cache.ts", "a full page holds `limit` pets, at least one: its last is always there", [
    [55, "page.pets.at(-1).id"],
  ]),
  ...alike("src/core/cache.ts", "any text for 'no status' that names no status keeps the pages' keys apart", [
    [61, '"Stryker was here!"'],
  ]),
  ...alike(
    "src/core/cursor.ts",
    "the same secret imports to the same key: keeping it saves an import per request, and signs and verifies alike",
    [
      [25, "true"],
      [26, "true"],
      [30, ";"],
    ],
  ),
  ...alike("src/core/cursor.ts", "base64 has '=' only at its end", [[39, "/=+/"]]),
  ...alike(
    "src/core/cursor.ts",
    "counting characters first is a shortcut: a string of at least 32 UTF-16 units is at least 32 UTF-8 bytes, so the byte count decides the rest",
    [
      ["50:19", "true"],
      ["50:19", "secret.length <= MIN_SECRET_BYTES"],
    ],
  ),
  ...alike(
    "src/core/cursor.ts",
    "HMAC is deterministic: a position signed again with the same secret is the same cursor, which the cache only saves computing",
    [
      [69, "false"],
      [73, "{}"],
    ],
  ),
  ...alike(
    "src/core/cursor.ts",
    "only a payload signed with one of the service's secrets reaches the pattern, and the service signs only that shape",
    [
      [99, "/1\\.([1-9][0-9]{0,15})\\.([a-z]*)$/"],
      [99, "/^1\\.([1-9][0-9]{0,15})\\.([a-z]*)/"],
    ],
  ),
  ...alike(
    "src/core/cursor.ts",
    "every door checks a cursor's shape with the same CURSOR_SHAPE (the query's and list_pets' zod schema) before the operation reads it, so the check here never refuses, and a cursor of that shape has both parts",
    [
      [110, "false"],
      [110, '""'],
      [111, '"Stryker was here!"'],
    ],
  ),
];
