// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote lines of source, template literals included.
// The survivors of the body, json and headers groups (src/lib/bounded-body.ts,
// src/http/json-body.ts, src/lib/json-ambiguity.ts, src/http/answer-headers.ts,
// src/http/header-parts.ts) that no test can tell apart from the code, each with why.

import { alike, type Equivalent, inFile } from "./equivalent";

export const HTTP_EQUIVALENTS: Equivalent[] = [
  ...alike(
    "src/http/header-parts.ts",
    "a combination of parts, and the Headers it makes, kept for the next request that declares the same parts: made anew each time, they hold the same headers, at a cost the bench counts",
    [
      ["if (!longer) {", "true"],
      ["this.#longer.set(part, longer);", ";"],
      ["if (!this.#headers) {", "true"],
    ],
  ),
  ...alike(
    "src/lib/bounded-body.ts",
    "reading a body in one call is a shortcut: its bytes are counted after it, so a body over the bound is refused either way, and one within it read whole either way",
    [
      ["if (!body) return new Uint8Array();", "true"],
      ["if (!body) return new Uint8Array();", "length < max"],
      ["if (!body) return new Uint8Array();", "length > max"],
      ["if (!body) return new Uint8Array();", "{}"],
    ],
  ),
  ...alike(
    "src/http/json-body.ts",
    "the shortcut for the header nearly every client sends: the full checks accept application/json without a parameter or an encoding all the same",
    [
      ['if (contentType === "application/json" && contentEncoding === undefined) return;', "false"],
      ['if (contentType === "application/json" && contentEncoding === undefined) return;', '""'],
    ],
  ),
  ...alike(
    "src/http/json-body.ts",
    "a missing Content-Type is refused by its media type, empty or not, before its charset is read; split always yields a first part, and a charset's group always takes part in its match",
    [
      ['const mediaType = contentType?.split(";")[0]?.trim() ?? "";', 'contentType?.split(";")[0].trim'],
      ['const mediaType = contentType?.split(";")[0]?.trim() ?? "";', '"Stryker was here!"'],
      [
        'const charsets = [...(contentType ?? "").matchAll(CHARSET_PARAMETER)].map((match) => match[1] ?? "");',
        '"Stryker was here!"',
      ],
    ],
  ),
  ...alike(
    "src/http/json-body.ts",
    "a header's value reaches the Worker without the whitespace around it (Fetch trims it)",
    [
      [
        ['if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== "identity") {', 38],
        "contentEncoding",
      ],
    ],
  ),
  ...alike(
    "src/lib/json-ambiguity.ts",
    "a repeated member's path always ends in its own name: the fallback is never read",
    [
      [
        'if (problem.kind === "repeated") return `${place.text} cannot repeat the member \'${excerpt(name ?? "")}\'.`;',
        '"Stryker was here!"',
      ],
    ],
  ),
  // The scan reads only valid JSON (JSON.parse has accepted it first): what it cannot meet is
  // not checked twice.
  ...inFile("src/lib/json-ambiguity.ts", [
    [
      ['if (typeof value !== "object" || value === null) return 0;', 34],
      "false",
      "null reaches the walk as an object with no members: it counts 0 either way",
    ],
    [
      "if (inner < 0) return -1;",
      "false",
      "a part too deep then takes one from the count instead, which can only fall short of the colons the text writes: the text is scanned either way",
    ],
    [
      "const structure = text.replace(STRINGS, '\"\"');",
      '""',
      "what stands in for a string in the structure is never read: the gate reads its colons and digits, and a string's are taken out either way",
    ],
    [
      'const roundsToInteger = (token: string, whole: string, fraction = "", exponent = "0") => {',
      '""',
      "an absent exponent reads as 0 either way: Number('') is 0",
    ],
    [
      "const fractionalDigits = point <= 0 ? digits : digits.slice(point);",
      "point < 0",
      "at point 0, slice(0) is the whole of the digits, as the other branch",
    ],
    [
      "const path = (): JsonPath => open.flatMap(({ at }) => (at === undefined ? [] : [at]));",
      "false",
      "an object's place is unset only between its '{' and its first name, where valid JSON holds nothing a problem is found in",
    ],
    [
      "const path = (): JsonPath => open.flatMap(({ at }) => (at === undefined ? [] : [at]));",
      '["Stryker was here"]',
      "an object's place is unset only between its '{' and its first name, where valid JSON holds nothing a problem is found in",
    ],
    ["let expectingName = false;", "true", "whether a string is a name is read only inside an object, and '{' sets it"],
    [
      "for (let index = 0; index < text.length; index++) {",
      "index <= text.length",
      "the character past the end is undefined, which no branch takes",
    ],
    [
      "const end = STRING.test(text) ? STRING.lastIndex - 1 : text.length;",
      "true",
      "a string in valid JSON always has its closing quote",
    ],
    [
      "if (expectingName && frame?.names) {",
      "frame.names",
      "outside any object or array, whether a string is a name is false: valid JSON has one value at the top",
    ],
    [
      'const name: string = raw.includes("\\\\") ? JSON.parse(`"${raw}"`) : raw;',
      '""',
      "a name without an escape parses to itself: reading each one through JSON.parse gives the same names",
    ],
    [
      'const [token = "", whole = "", fraction, exponent] = NUMBER.exec(text) ?? [];',
      '"Stryker was here!"',
      "the number pattern always matches at a '-' or a digit of valid JSON",
    ],
    [
      'const [token = "", whole = "", fraction, exponent] = NUMBER.exec(text) ?? [];',
      '["Stryker was here"]',
      "the number pattern always matches at a '-' or a digit of valid JSON",
    ],
    [
      "if ((fraction !== undefined || exponent !== undefined) && roundsToInteger(token, whole, fraction, exponent)) {",
      "true",
      "digits alone have no fractional digits, so never round: the check is a shortcut",
    ],
    [
      'expectingName = character === "{";',
      "true",
      "whether a string is a name is read only inside an object, and every way to a name there ('{' or ',') sets it",
    ],
    [
      "expectingName = frame.names !== null;",
      "true",
      "whether a string is a name is read only inside an object, and every way to a name there ('{' or ',') sets it",
    ],
    [
      "if (frame.names === null) frame.at = (frame.at as number) + 1;",
      "true",
      "an object's place moved on at a comma is replaced by the next name before anything reads it",
    ],
  ]),
];
