// The survivors of the body, json and headers groups (src/lib/bounded-body.ts, src/http/json-body.ts,
// src/http/json-ambiguity.ts, src/http/answer-headers.ts) that no test can tell apart from the code, each with why.

import { alike, type Equivalent, inFile } from "./equivalent";

export const HTTP_EQUIVALENTS: Equivalent[] = [
  ...alike(
    "src/http/answer-headers.ts",
    "a combination of parts, and the Headers it makes, kept for the next request that declares the same parts: made anew each time, they hold the same headers, at a cost the bench counts",
    [
      [71, "true"],
      [73, ";"],
      [79, "true"],
    ],
  ),
  ...alike(
    "src/lib/bounded-body.ts",
    "reading a body in one call is a shortcut: its bytes are counted after it, so a body over the bound is refused either way, and one within it read whole either way",
    [
      [31, "true"],
      [31, "length < max"],
      [31, "length > max"],
      [31, "{}"],
    ],
  ),
  ...alike(
    "src/http/json-body.ts",
    "the shortcut for the header nearly every client sends: the full checks accept application/json without a parameter or an encoding all the same",
    [
      [23, "false"],
      [23, '""'],
    ],
  ),
  ...alike(
    "src/http/json-body.ts",
    "a missing Content-Type is refused by its media type, empty or not, before its charset is read; split always yields a first part, and a charset's group always takes part in its match",
    [
      [24, 'contentType?.split(";")[0].trim'],
      [24, '"Stryker was here!"'],
      [26, '"Stryker was here!"'],
    ],
  ),
  ...alike(
    "src/http/json-body.ts",
    "a header's value reaches the Worker without the whitespace around it (Fetch trims it)",
    [["33:40", "contentEncoding"]],
  ),
  ...alike(
    "src/http/json-body.ts",
    "a repeated member's path always ends in its own name: the fallback is never read",
    [[44, '"Stryker was here!"']],
  ),
  // The scan reads only valid JSON (JSON.parse has accepted it first): what it cannot meet is
  // not checked twice.
  ...inFile("src/http/json-ambiguity.ts", [
    [27, '""', "an absent exponent reads as 0 either way: Number('') is 0"],
    [30, "point < 0", "at point 0, slice(0) is the whole of the digits, as the other branch"],
    [
      48,
      "false",
      "an object's place is unset only between its '{' and its first name, where valid JSON holds nothing a problem is found in",
    ],
    [
      48,
      '["Stryker was here"]',
      "an object's place is unset only between its '{' and its first name, where valid JSON holds nothing a problem is found in",
    ],
    [49, "true", "whether a string is a name is read only inside an object, and '{' sets it"],
    [50, "index <= text.length", "the character past the end is undefined, which no branch takes"],
    [56, "true", "a string in valid JSON always has its closing quote"],
    [
      57,
      "frame.names",
      "outside any object or array, whether a string is a name is false: valid JSON has one value at the top",
    ],
    [60, '""', "a name without an escape parses to itself: reading each one through JSON.parse gives the same names"],
    [69, '"Stryker was here!"', "the number pattern always matches at a '-' or a digit of valid JSON"],
    [69, '["Stryker was here"]', "the number pattern always matches at a '-' or a digit of valid JSON"],
    [71, "true", "digits alone have no fractional digits, so never round: the check is a shortcut"],
    [
      78,
      "true",
      "whether a string is a name is read only inside an object, and every way to a name there ('{' or ',') sets it",
    ],
    [
      82,
      "true",
      "whether a string is a name is read only inside an object, and every way to a name there ('{' or ',') sets it",
    ],
    [83, "true", "an object's place moved on at a comma is replaced by the next name before anything reads it"],
  ]),
];
