import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every relative link of the READMEs, the CHANGELOG and docs/ names a file of the repository, and an
// anchor one of that file's headings (as GitHub makes anchors of them).

const pages = [
  "README.md",
  "CHANGELOG.md",
  "client/README.md",
  "bench/README.md",
  ...readdirSync("docs").map((name) => path.join("docs", name)),
];

/** GitHub's anchor of a heading: lower case, punctuation but hyphens dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

const anchorsOf = (file: string) =>
  new Set([...readFileSync(file, "utf8").matchAll(/^#{1,6} (.+)$/gm)].map(([, heading = ""]) => anchorOf(heading)));

describe.each(pages)("the links of %s", (page) => {
  it("resolve to files and headings of the repository", () => {
    const text = readFileSync(page, "utf8").replace(/```[\s\S]*?```/g, "");
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target = ""]) => target)
      .filter((target) => !/^[a-z]+:/.test(target));
    for (const link of links) {
      const [file = "", anchor] = link.split("#");
      const target = file ? path.join(path.dirname(page), file) : page;
      expect(existsSync(target), `${page}: ${link}`).toBe(true);
      if (anchor) expect(anchorsOf(target).has(anchor), `${page}: ${link}`).toBe(true);
    }
  });
});
