import { describe, expect, it } from "vitest";
import {
  fieldOf,
  findJsonProblem,
  MAX_JSON_DEPTH,
  mayHaveProblem,
  scanForProblem,
} from "../../../src/lib/json-ambiguity";

// The one-pass scan that both doors' JSON goes through (the pet body, an MCP message), on
// texts chosen to tell a scan that reads every token in its place from one that slips:
// strings read as names, names read as values, places in arrays miscounted, numbers cut short.
// What each door answers is shown through it: test/worker/pets/create-pet.test.ts,
// test/worker/pets/create-pet-body.test.ts and test/worker/mcp/arguments.test.ts.

describe("a member name given twice", () => {
  it("is found after a string as long as a body may be (64 KiB), of escapes or of plain characters", () => {
    for (const long of ['\\"'.repeat(32_768), "x".repeat(65_536)]) {
      expect(findJsonProblem(`{"a":"${long}","a":1}`)).toEqual({ kind: "repeated", path: ["a"] });
    }
  });

  it.each([
    ['{"a":1,"a":2}', ["a"]],
    ['{"x":{"a":1,"a":2}}', ["x", "a"]],
    ['{"list":[true, null, {"a":1,"a":2}]}', ["list", 2, "a"]],
    // The same name, once escaped: JSON.parse reads both as "a".
    ['{"a":1,"\\u0061":2}', ["a"]],
    ['{"a\\"b":1,"a\\"b":2}', ['a"b']],
    // A string that ends in an escaped backslash ends at the quote after it.
    ['{"a":"x\\\\","a":1}', ["a"]],
    ['{"a\\\\":1,"a\\\\":2}', ["a\\"]],
    // The names after a closed object or array are the outer object's again.
    ['{"a":{"b":1},"a":2}', ["a"]],
    ['{"a":[],"a":1}', ["a"]],
    // Colons, digits and exponents inside strings are not the text's own.
    ['{"a:b":"1e5:","a:b":1}', ["a:b"]],
    ['{"x":{"a":1},"y":{"b":1,"b":2},"z":{"c":"::"}}', ["y", "b"]],
  ])("is found in %s, at %j", (text, path) => {
    expect(findJsonProblem(text)).toEqual({ kind: "repeated", path });
  });

  it.each([
    '{"a":{"b":1},"b":2}',
    '{"a":{"a":1},"b":{"a":2}}',
    '[{"a":1},{"a":1}]',
    '["a","a"]',
    '{"a":"a","b":"a"}',
    '{"a":"b","c":"a"}',
    '{"a\\"":1,"a":2}',
    '{"a":"\\"a\\":1,","b":"{[,"}',
    // Three backslashes: an escaped one, then an escaped quote, inside the string.
    '{"a":"\\\\\\"a\\":1","b":2}',
    '"a"',
    "true",
    "[]",
    "{}",
  ])("is not what %s holds", (text) => {
    expect(findJsonProblem(text)).toBeUndefined();
    // The scan's own verdict, past the gate that spares most of these texts.
    expect(scanForProblem(text)).toBeUndefined();
  });
});

describe("a number a double would round to an integer it is not", () => {
  const longFraction = `1.${"0".repeat(400)}e-400`;
  it.each([
    ["1.0000000000000001", [], "1.0000000000000001"],
    ["-1.0000000000000001", [], "-1.0000000000000001"],
    ["12.0000000000000001", [], "12.0000000000000001"],
    ["0.99999999999999999", [], "0.99999999999999999"],
    ["9.0000000000000001", [], "9.0000000000000001"],
    ["9007199254740991.4", [], "9007199254740991.4"],
    ["1e-400", [], "1e-400"],
    ["1.0000000000000001e0", [], "1.0000000000000001e0"],
    ["1.00000000000000001e1", [], "1.00000000000000001e1"],
    // Past the exponent's reach into the digits: only a nonzero digit among them counts.
    [longFraction, [], longFraction],
    ['{"categoryId":1.0000000000000001}', ["categoryId"], "1.0000000000000001"],
    ['[true, null, "1", 1.0000000000000001]', [3], "1.0000000000000001"],
    ['{"a":"b","c":[0,{"d":1e-400}]}', ["c", 1, "d"], "1e-400"],
  ])("is found in %s, at %j", (text, path, token) => {
    expect(findJsonProblem(text)).toEqual({ kind: "inexact", path, token });
  });

  it.each([
    "1",
    "0",
    "-1",
    "1.0",
    "1.00",
    "1e0",
    "10e-1",
    "1.5e1",
    "1000e-2",
    "1.5",
    "-0.5",
    "1.05e1",
    "9007199254740993",
    '"1.0000000000000001"',
    '{"a":"1e-400"}',
  ])("is not %s: an integer as written, or a fraction a double keeps", (text) => {
    expect(findJsonProblem(text)).toBeUndefined();
    expect(scanForProblem(text)).toBeUndefined();
  });
});

describe(`nesting deeper than ${MAX_JSON_DEPTH} levels`, () => {
  it("is found at the 33rd level, not at the 32nd", () => {
    expect(MAX_JSON_DEPTH).toBe(32);
    expect(findJsonProblem(`${"[".repeat(32)}${"]".repeat(32)}`)).toBeUndefined();
    expect(findJsonProblem(`${"[".repeat(33)}${"]".repeat(33)}`)).toEqual({
      kind: "deep",
      path: Array.from({ length: 32 }, () => 0),
    });
    expect(findJsonProblem(`${'{"a":'.repeat(32)}1${"}".repeat(32)}`)).toBeUndefined();
  });

  it("counts only the levels still open", () => {
    const closedEachTime = Array.from({ length: 40 }, () => "[[]]").join(",");
    expect(findJsonProblem(`[${closedEachTime}]`)).toBeUndefined();
  });
});

// Every text above goes through the gate that spares most texts the scan: a problem it let
// through would fail the cases above. Here, that it spares what it should.
describe("the gate before the scan", () => {
  const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
  it.each([
    '{"name":"Rex","categoryId":1}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_pets","arguments":{},"_meta":{"a/b":{}}}}',
    // Digits, exponents and colons inside strings, and a name repeated in two objects.
    '{"a":"1.5e3:","b":{"a":"x"},"c":[{"a":1},{"a":2}]}',
    '[1,-20,true,null,"1.0"]',
    nested(32),
    "1",
  ])("spares %s", (text) => {
    expect(mayHaveProblem(text, JSON.parse(text))).toBe(false);
  });

  // Too deep with members in it, so that a count that forgot the depth would balance.
  const deepObjects = `${'{"a":'.repeat(33)}1${"}".repeat(33)}`;
  const deepInArrays = `${"[".repeat(32)}{"a":1}${"]".repeat(32)}`;
  it.each([
    '{"a":1,"a":2}',
    '{"x":[{"a":{"b":1,"b":1}}]}',
    "1.5",
    "[2E3]",
    "-1e0",
    nested(33),
    deepObjects,
    deepInArrays,
  ])("scans %s", (text) => {
    expect(mayHaveProblem(text, JSON.parse(text))).toBe(true);
  });
});

describe("the field a problem belongs to", () => {
  it("is the innermost member name on its path, past any index", () => {
    expect(fieldOf(["tags", 0])).toBe("tags");
    expect(fieldOf(["a", 1, "b", 2])).toBe("b");
    expect(fieldOf([0, 1])).toBeUndefined();
    expect(fieldOf([])).toBeUndefined();
  });
});
