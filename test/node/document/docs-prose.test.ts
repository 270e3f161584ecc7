import { existsSync, globSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The prose that a reader follows: every link resolves to a file and a heading, every path it
// names is in the repository, no paragraph is a fragment left by a move, no heading stands
// empty, a figure measured by a command says when it was measured, and the architecture's
// map names every folder of the code.

const PAGES = [
  "README.md",
  "CHANGELOG.md",
  "client/README.md",
  "bench/README.md",
  ...readdirSync("docs").map((name) => path.join("docs", name)),
];
const read = (page: string) => readFileSync(page, "utf8");
const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, "");

/** Repository paths as prose names them: from a top folder of the repository, without placeholders. */
const PATH = /(?<![\w@/.:~$-])((?:\.github|\.ci|src|scripts|test|bench|docs|client|drizzle)\/[\w.*/-]*[\w*/])/g;
const pathsOf = (text: string) =>
  [...text.matchAll(PATH)].map(([, named = ""]) => named).filter((named) => !/[<{]/.test(named));

/** A path exists as named from the repository's root or, in a folder's README, from that folder. */
const exists = (page: string, named: string) =>
  [named, path.join(path.dirname(page), named)].some((candidate) =>
    candidate.includes("*") ? globSync(candidate).length > 0 : existsSync(candidate),
  );

/** The paragraphs of a page outside code: blocks between blank lines that are not headings, lists, tables or quotes. */
const paragraphsOf = (text: string) =>
  withoutCode(text)
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block && !/^(#|\||>|<|[-*] |\d+\. )/.test(block));
/** The text of each list item. */
const itemsOf = (text: string) =>
  [...withoutCode(text).matchAll(/^\s*(?:[-*]|\d+\.) (.*)$/gm)].map(([, item = ""]) => item.trim());

/** A paragraph that begins with punctuation that only continues a sentence, or in lower case (mid-sentence). */
const FRAGMENT_START = /^(?:\*\*)?[,.;:)\]}(]|^(?:\*\*)?\p{Ll}/u;
/** A list item may go on with the sentence that leads into the list, but not begin with such punctuation. */
const ITEM_FRAGMENT_START = /^(?:\*\*)?[,.;:)\]}]/u;

/** Headings that are empty, or whose section holds nothing before a heading of its own level or higher. */
const emptyHeadingsOf = (text: string) => {
  const lines = withoutCode(text).split("\n");
  const empty: string[] = [];
  lines.forEach((line, index) => {
    const level = line.match(/^(#{1,6})(?:\s|$)/)?.[1]?.length;
    if (!level) return;
    if (!line.slice(level).trim()) empty.push(`line ${index + 1}: "${line}"`);
    const next = lines.slice(index + 1).find((other) => other.trim());
    const nextLevel = next?.match(/^(#{1,6})\s/)?.[1]?.length;
    if (next === undefined || (nextLevel !== undefined && nextLevel <= level)) empty.push(`"${line}" has no content`);
  });
  return empty;
};

/**
 * A sentence that quotes what a command measured (a size, a time, a count of lines or tests)
 * must say on which day, as YYYY-MM-DD, and a time also on what machine ("2 cores"): such a
 * figure changes with the code, and a time with the machine too.
 */
const MEASURED = /\b(?:measured|took|printed|prints|passes in|ran in|runs in|gzip|gzipped)\b/i;
const FIGURE = /\d[\d,.]*(?:\s?(?:KiB|MiB|KB|MB|µs)|\s(?:s|seconds|minutes|lines|tests))(?![\w-])/g;
/** A bound is not a measurement: "at most 4 KiB", "the budget, 60 KiB", "over 5 s". */
const BOUND = /(?:over|under|at most|at least|budget,?|budget of|limit,?|within|up to|than|after|every|each)\s*$/i;
const TIME = /(?:s|seconds|minutes|µs)$/;
const quotedFigures = (sentence: string) =>
  [...sentence.matchAll(FIGURE)].filter(({ index }) => !BOUND.test(sentence.slice(Math.max(0, index - 16), index)));
const isUndated = (sentence: string) => {
  const quoted = quotedFigures(sentence);
  if (!quoted.length || !MEASURED.test(sentence)) return false;
  const dated = /\b20\d\d-\d\d-\d\d\b/.test(sentence);
  const onAMachine = /\bcores?\b/.test(sentence) || !quoted.some(([figure]) => TIME.test(figure));
  return !dated || !onAMachine;
};
const undatedFiguresOf = (text: string) =>
  withoutCode(text)
    .split(/\n\s*\n/)
    .flatMap((block) => block.split(block.startsWith("|") ? "\n" : /\n(?=\s*(?:[-*]|\d+\.) )/))
    .map((block) => block.replace(/\s*\n\s*/g, " "))
    .flatMap((block) => block.split(/(?<=[.!?])\s+(?=[A-Z`*(])/).map((sentence) => sentence.trim()))
    .filter(isUndated);

/** GitHub's anchor of a heading: lower case, punctuation but hyphens dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
const anchorsOf = (file: string) =>
  new Set([...read(file).matchAll(/^#{1,6} (.+)$/gm)].map(([, heading = ""]) => anchorOf(heading)));

describe.each(PAGES)("%s", (page) => {
  const text = read(page);

  it("links only to files and headings of the repository", () => {
    const links = [...withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target = ""]) => target)
      .filter((target) => !/^[a-z]+:/.test(target));
    for (const link of links) {
      const [file = "", anchor] = link.split("#");
      const target = file ? path.join(path.dirname(page), file) : page;
      expect(existsSync(target), `${page}: ${link}`).toBe(true);
      if (anchor) expect(anchorsOf(target).has(anchor), `${page}: ${link}`).toBe(true);
    }
  });

  it("names only paths that exist", () => {
    expect(pathsOf(text).filter((named) => !exists(page, named))).toEqual([]);
  });

  it("has no paragraph or list item that begins in mid-sentence", () => {
    const fragments = [
      ...paragraphsOf(text).filter((block) => FRAGMENT_START.test(block)),
      ...itemsOf(text).filter((item) => ITEM_FRAGMENT_START.test(item)),
    ];
    expect(fragments.map((block) => block.slice(0, 80))).toEqual([]);
  });

  it("has no empty heading", () => {
    expect(emptyHeadingsOf(text)).toEqual([]);
  });

  it("dates every figure it quotes from a measuring command", () => {
    expect(undatedFiguresOf(text).map((sentence) => sentence.slice(0, 120))).toEqual([]);
  });
});

describe("the checks above", () => {
  it("find a missing path, a fragment, an empty heading and an undated measurement", () => {
    const broken = "See `src/nowhere.ts`.\n\n, so a migration runs.\n\n#\n\n## Empty\n\n## Next\n\nIt took 103 s.\n";
    expect(pathsOf(broken).filter((named) => !exists("README.md", named))).toEqual(["src/nowhere.ts"]);
    expect(paragraphsOf(broken).filter((block) => FRAGMENT_START.test(block))).toEqual([", so a migration runs."]);
    expect(emptyHeadingsOf(broken)).toEqual(['line 5: "#"', '"## Empty" has no content']);
    expect(undatedFiguresOf(broken)).toEqual(["It took 103 s."]);
    expect(undatedFiguresOf("It took 103 s on 2026-11-26 (2 cores).")).toEqual([]);
    expect(undatedFiguresOf("It took 103 s on 2026-11-26.")).toEqual(["It took 103 s on 2026-11-26."]);
    expect(undatedFiguresOf("`npm run check:deploy` printed 59.22 KiB on 2026-11-26.")).toEqual([]);
  });
});

/** The folders of the code, as the architecture's map must name each: src/'s, scripts/'s, bench/ and test/'s, two deep. */
const codeFolders = () => {
  const under = (folder: string): string[] =>
    readdirSync(folder)
      .map((name) => path.join(folder, name))
      .filter((entry) => statSync(entry).isDirectory() && !/node_modules|generated/.test(entry));
  const top = [...under("src"), ...under("scripts"), "bench", ...under("test")];
  return [...top, ...top.filter((folder) => folder.startsWith("src/") || folder.startsWith("test/")).flatMap(under)]
    .map((folder) => `${folder}/`)
    .toSorted();
};

describe("the map of docs/architecture.md", () => {
  const map = read("docs/architecture.md")
    .split(/^## /m)
    .find((section) => section.startsWith("Map"));
  const mapped = [...(map ?? "").matchAll(/^- `([^`]+\/)`/gm)].map(([, folder = ""]) => folder).toSorted();

  it("names every folder of the code, and only those", () => {
    expect(mapped).toEqual(codeFolders());
  });
});
