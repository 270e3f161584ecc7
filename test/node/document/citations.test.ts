import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CITATIONS, type Citation } from "./citations/index";

// A test cited by the docs is a promise that it fails when its sentence stops being true.
// ./citations/ lists each citation with the tests that show it and a change that breaks
// it (`npm run test:citations` makes each change and sees those tests fail); here every
// citation of the pages is in that list, and every test it names is in the cited file.

const PAGES = [
  "README.md",
  "client/README.md",
  "bench/README.md",
  ...readdirSync("docs").map((name) => `docs/${name}`),
];
const oneLine = (text: string) => text.replace(/\s+/g, " ");

/** Each citation of a test file in a page's prose: the file, and the paragraph, list item or table row around it. */
const citationsIn = (text: string) =>
  text
    .replace(/```[\s\S]*?```/g, "")
    .split(/\n\s*\n/)
    .flatMap((block) => (block.trimStart().startsWith("|") ? block.split("\n") : [block]))
    .flatMap((block) =>
      [...block.matchAll(/test\/[\w./-]+\.test\.ts/g)].map(([test]) => ({ test, block: oneLine(block) })),
    );

/** The titles of a file's tests, and of those in the helpers it imports, as patterns (`%s`, `$name` and `${...}` match anything); not of describe blocks, which name no one behaviour. */
const testNamesOf = (file: string) => {
  const source = readFileSync(file, "utf8");
  const helpers = [...source.matchAll(/from "(\.{1,2}\/[^"]+)"/g)]
    .map(([, relative = ""]) => path.join(path.dirname(file), `${relative}.ts`))
    .filter((helper) => existsSync(helper));
  return [source, ...helpers.map((helper) => readFileSync(helper, "utf8"))].flatMap((text) =>
    [...text.matchAll(/\b(?:it|test)(?:\.\w+)*(?:\([^)]*\))?\(\s*(["'`])((?:\\.|(?!\1)[^\\])*)\1/g)].map(
      ([, , title = ""]) =>
        new RegExp(
          title
            .split(/%[sid]|\$\{[^}]*\}|\$\w+/)
            .map((part) => part.replace(/\\(.)/g, "$1").replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
            .join(".*"),
        ),
    ),
  );
};

/** What is wrong with the list against the pages: citations it lacks, entries no page makes, tests it names that do not exist. */
const citationProblems = (pages: Record<string, string>, citations: Citation[]) => {
  const made = Object.entries(pages).flatMap(([page, text]) => citationsIn(text).map((found) => ({ page, ...found })));
  /** The entries for a citation: a claim of several parts has one entry for each. */
  const entryOf = ({ page, test, block }: (typeof made)[number]) =>
    citations.filter((entry) => entry.page === page && entry.test === test && block.includes(entry.claim));
  const claimedBy = (entry: Citation) => made.filter((found) => entryOf(found).includes(entry)).length;
  return [
    ...made
      .filter((found) => entryOf(found).length === 0)
      .map(({ page, test, block }) => `${page} cites ${test} in "${block.slice(0, 120)}", which no entry claims`),
    ...citations
      .filter((entry) => claimedBy(entry) !== 1)
      .map((entry) => `${claimedBy(entry)} citations of ${entry.test} in ${entry.page} say "${entry.claim}", not 1`),
    ...citations.flatMap(({ test, shownBy }) => {
      if (!existsSync(test)) return [`${test} does not exist`];
      const names = testNamesOf(test);
      return shownBy
        .filter((name) => !names.some((pattern) => pattern.test(name)))
        .map((name) => `${test} has no test named "${name}"`);
    }),
    ...citations
      .filter(({ shownBy, breaks }) => !shownBy.length || !breaks.length)
      .map(({ test }) => `${test}: a citation names no test or no change`),
  ];
};

describe("the docs' citations of tests", () => {
  const pages = Object.fromEntries(PAGES.map((page) => [page, readFileSync(page, "utf8")]));

  it("are each listed, with words of their sentence, and name tests that the cited file has", () => {
    expect(citationProblems(pages, CITATIONS)).toEqual([]);
  });

  it("would be found wanting: an unlisted citation, a sentence reworded, a test that is not there", () => {
    const entry: Citation = {
      page: "p.md",
      test: "test/worker/http/routing.test.ts",
      claim: "Allow is sent",
      shownBy: ["routing answers HEAD like GET, without a body"],
      breaks: [{ file: "src/app.ts", find: "a", replace: "b" }],
    };
    const cites = (claim: string) => ({ "p.md": `${claim} (\`test/worker/http/routing.test.ts\`).` });
    expect(citationProblems(cites("Allow is sent"), [entry])).toEqual([]);
    expect(citationProblems(cites("Allow is sent"), [])).toHaveLength(1);
    expect(citationProblems(cites("Allow goes"), [entry])).toHaveLength(2);
    // Only a whole test's title counts: a describe block's, or part of a title, names no one behaviour.
    for (const name of ["answers HEAD like PUT", "routing answers HEAD"]) {
      expect(citationProblems(cites("Allow is sent"), [{ ...entry, shownBy: [name] }])).toEqual([
        `test/worker/http/routing.test.ts has no test named "${name}"`,
      ]);
    }
  });
});
