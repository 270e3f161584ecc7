// What makes a valid JSON text mean different things to different readers, or cost more
// to read than any request needs: found in one pass over the text, without recursion, so
// that no nesting can exhaust the stack; and only in a text that a cheaper look at its
// parsed value cannot clear (mayHaveProblem, whose recursion stops at MAX_JSON_DEPTH). The
// pet body (src/http/json-body.ts) and an MCP message (src/mcp/routes.ts) are held to the
// same rules, and word what they find alike (describeJsonProblem), each naming its own text.
import { excerpt } from "./display-text";

/** How deep a JSON text may nest: a pet is one object; an MCP message's deepest part, a few levels. */
export const MAX_JSON_DEPTH = 32;

/** Where a problem is: member names and array indexes from the top. */
export type JsonPath = (string | number)[];

export type JsonProblem =
  /** A member name given twice in one object: JSON.parse keeps the last, other parsers (a proxy's, a firewall's) the first. */
  | { kind: "repeated"; path: JsonPath }
  /** A number a double would round to an integer that it is not ("1.0000000000000001"). */
  | { kind: "inexact"; path: JsonPath; token: string }
  /** Nested deeper than MAX_JSON_DEPTH. */
  | { kind: "deep"; path: JsonPath };

const NUMBER = /-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;

/**
 * Whether a JSON number, as written, would be read as an integer that it is not:
 * "1.0000000000000001" and "9007199254740991.4" become 1 and 9007199254740991 in a
 * double. "1.0" and "1e0" are the integer 1 as written, and pass.
 */
const roundsToInteger = (token: string, whole: string, fraction = "", exponent = "0") => {
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  const fractionalDigits = point <= 0 ? digits : digits.slice(point);
  return !/^0*$/.test(fractionalDigits) && Number.isInteger(Number(token));
};

/**
 * A string, from its opening quote to its closing one; sticky, so that it is read where the
 * scan stands. Runs of plain characters are read in one step each: an alternation per
 * character would hold a place to go back to for every character, and a long string would
 * overflow the pattern's stack.
 */
const STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/y;

/** One open object (the member names so far) or array (null), and where in it the scan is. */
type Frame = { names: Set<string> | null; at: string | number | undefined };

/** The first problem of a valid JSON `text`, found by reading every token in its place. */
export const scanForProblem = (text: string): JsonProblem | undefined => {
  const open: Frame[] = [];
  const path = (): JsonPath => open.flatMap(({ at }) => (at === undefined ? [] : [at]));
  let expectingName = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string;
    const frame = open.at(-1);
    if (character === '"') {
      STRING.lastIndex = index;
      // Its closing quote; a string in valid JSON always has one.
      const end = STRING.test(text) ? STRING.lastIndex - 1 : text.length;
      if (expectingName && frame?.names) {
        // Most names have no escape: read as they stand, rather than parsed.
        const raw = text.slice(index + 1, end);
        const name: string = raw.includes("\\") ? JSON.parse(`"${raw}"`) : raw;
        frame.at = name;
        if (frame.names.has(name)) return { kind: "repeated", path: path() };
        frame.names.add(name);
        expectingName = false;
      }
      index = end;
    } else if (character === "-" || (character >= "0" && character <= "9")) {
      NUMBER.lastIndex = index;
      const [token = "", whole = "", fraction, exponent] = NUMBER.exec(text) ?? [];
      // Digits alone are the integer they spell: only a fraction or an exponent can round.
      if ((fraction !== undefined || exponent !== undefined) && roundsToInteger(token, whole, fraction, exponent)) {
        return { kind: "inexact", path: path(), token };
      }
      index += token.length - 1;
    } else if (character === "{" || character === "[") {
      if (open.length === MAX_JSON_DEPTH) return { kind: "deep", path: path() };
      open.push(character === "{" ? { names: new Set(), at: undefined } : { names: null, at: 0 });
      expectingName = character === "{";
    } else if (character === "}" || character === "]") {
      open.pop();
    } else if (character === "," && frame) {
      expectingName = frame.names !== null;
      if (frame.names === null) frame.at = (frame.at as number) + 1;
    }
  }
  return undefined;
};

/** Every string of a valid JSON text, whole: what is left is its structure, numbers and literals. */
const STRINGS = new RegExp(STRING.source, "g");
/** A digit before a fraction or an exponent: only such a number can be inexact. */
const FRACTION_OR_EXPONENT = /\d[.eE]/;

/** How many members the objects of a parsed value hold in all; -1 if it nests deeper than MAX_JSON_DEPTH. */
const membersOf = (value: unknown, depth: number): number => {
  if (typeof value !== "object" || value === null) return 0;
  if (depth === MAX_JSON_DEPTH) return -1;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = membersOf(item, depth + 1);
      if (inner < 0) return -1;
      count += inner;
    }
    return count;
  }
  for (const name in value) {
    const inner = membersOf((value as Record<string, unknown>)[name], depth + 1);
    if (inner < 0) return -1;
    count += inner + 1;
  }
  return count;
};

/**
 * Whether a problem may be there, told from natively made pieces rather than a scan in
 * JavaScript: a number with a fraction or an exponent, a nesting too deep, or fewer members
 * in the parsed value than the text writes (JSON.parse keeps one of a repeated name). Most
 * texts have none of these.
 */
export const mayHaveProblem = (text: string, value: unknown) => {
  const structure = text.replace(STRINGS, '""');
  if (FRACTION_OR_EXPONENT.test(structure)) return true;
  let written = 0;
  for (let at = structure.indexOf(":"); at !== -1; at = structure.indexOf(":", at + 1)) written++;
  return membersOf(value, 0) !== written;
};

/** The first problem of a valid JSON `text`, if it has one; `value` is JSON.parse(text), which the door has already. */
export const findJsonProblem = (text: string, value: unknown = JSON.parse(text)): JsonProblem | undefined =>
  mayHaveProblem(text, value) ? scanForProblem(text) : undefined;

/** The innermost member name on a path, if any: the field a problem belongs to. */
export const fieldOf = (path: JsonPath): string | undefined => path.findLast((step) => typeof step === "string");

/** Where a problem was found, as its door names it: the whole text, and a member of it. */
export type JsonPlace = { text: string; member: string };

/** A problem in the words every door uses, naming the member it is in, or the whole text. */
export const describeJsonProblem = (problem: JsonProblem, place: JsonPlace, path: JsonPath = problem.path): string => {
  const name = fieldOf(path);
  const where = name === undefined ? place.text : `${place.member} '${excerpt(name)}'`;
  if (problem.kind === "repeated") return `${place.text} cannot repeat the member '${excerpt(name ?? "")}'.`;
  if (problem.kind === "deep") return `${where} cannot nest deeper than ${MAX_JSON_DEPTH} levels.`;
  return `${where} cannot hold ${excerpt(problem.token)}, which is not an integer but would be read as one: send it without a fractional part.`;
};
