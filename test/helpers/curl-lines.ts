// The reference page's curl lines as a reader copies them, read as a shell and curl
// would: its words, and the request they send.
import { expect } from "vitest";

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
export const unescapeHtml = (html: string) =>
  html.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? "");
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => Object.entries(ENTITIES).find(([, c]) => c === character)?.[0] ?? "");

/** Each operation's curl line as the page shows it (its text, as a browser would copy it). */
export const curlLines = (html: string) =>
  new Map(
    [
      ...html.matchAll(/<section class="operation[^"]*" id="([^"]+)">[\s\S]*?<pre class="curl"><code>([^<]*)<\/code>/g),
    ].map(([, id, line]) => [id ?? "", unescapeHtml(line ?? "")]),
  );

/**
 * The words a POSIX shell makes of a curl line, for the quoting the page may use:
 * '...', "..." expanding $NAME, and a backslash outside quotes. Anything else the
 * shell would interpret fails the test.
 */
export const shellWords = (line: string, variables: Record<string, string>): string[] => {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const character = line[i] ?? "";
    if (character === "\\") {
      // A backslash-newline joins lines; any other character after a backslash is itself.
      i++;
      if (line[i] !== "\n") word = (word ?? "") + (line[i] ?? "");
    } else if (character === " " || character === "\n") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (character === "'" || character === '"') {
      const end = line.indexOf(character, i + 1);
      if (end < 0) throw new Error(`An unclosed ${character} in: ${line}`);
      const quoted = line.slice(i + 1, end);
      if (character === '"' && /[\\`]|\$(?!\w)/.test(quoted)) throw new Error(`Unexpected in "...": ${quoted}`);
      word =
        (word ?? "") + (character === "'" ? quoted : quoted.replace(/\$(\w+)/g, (_, name) => variables[name] ?? ""));
      i = end;
    } else if (/[\\$`*?[\]{}~#&|;<>()!]/.test(character))
      throw new Error(`The shell would interpret ${character} in: ${line}`);
    else word = (word ?? "") + character;
  }
  if (word !== undefined) words.push(word);
  return words;
};

/** The request that curl would send for these words (the options the page uses, and no others). */
export const curlRequest = (words: string[]) => {
  expect(words[0]).toBe("curl");
  let method = "GET";
  let url = "";
  let body: string | undefined;
  const headers = new Headers();
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? "";
    if (word === "-i") continue;
    if (word === "-X") method = words[++i] ?? "";
    else if (word === "-H") {
      const [name = "", ...value] = (words[++i] ?? "").split(":");
      headers.set(name, value.join(":").trim());
    } else if (word === "-d") {
      body = words[++i];
      if (method === "GET") method = "POST";
    } else if (word.startsWith("-")) throw new Error(`An option the test does not know: ${word}`);
    else url = word;
  }
  return new Request(url, { method, headers, body });
};
