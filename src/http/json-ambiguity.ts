import { excerpt } from "./errors";

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
 * What makes a valid JSON `text` mean different things to different readers, if anything:
 * a repeated member name (JSON.parse keeps the last, other parsers (a proxy's, a
 * firewall's) the first), or a number that a double would round to an integer.
 */
export const ambiguity = (text: string): string | undefined => {
  // One entry per open object (its member names so far) or array (null).
  const open: (Set<string> | null)[] = [];
  let expectingName = false;
  let member: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string;
    if (character === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const names = open.at(-1);
      if (expectingName && names) {
        const name: string = JSON.parse(text.slice(index, end + 1));
        if (names.has(name)) return `The request body repeats the member '${excerpt(name)}'.`;
        names.add(name);
        member = name;
        expectingName = false;
      }
      index = end;
    } else if (character === "-" || (character >= "0" && character <= "9")) {
      NUMBER.lastIndex = index;
      const [token = "", whole = "", fraction, exponent] = NUMBER.exec(text) ?? [];
      if (roundsToInteger(token, whole, fraction, exponent)) {
        const where = member === undefined ? "The request body" : `Body field '${excerpt(member)}'`;
        return `${where} holds ${excerpt(token)}, which is not an integer but would be read as one: send it without a fractional part.`;
      }
      index += token.length - 1;
    } else if (character === "{") {
      open.push(new Set());
      expectingName = true;
    } else if (character === "[") {
      open.push(null);
    } else if (character === "}" || character === "]") {
      open.pop();
    } else if (character === ",") {
      expectingName = open.at(-1) instanceof Set;
    }
  }
  return undefined;
};
