import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CITATIONS, type Citation } from "./citations/index";

// A test cited by the docs backs a claim: here, on every run, each test file a page cites
// exists and holds tests, and each entry of ./citations/ names a file that exists, tests and
// a change. Their wording is not held: rewording a sentence or renaming a test leaves this
// green while the cited tests pass. `npm run test:citations` (../break-citations.ts) makes
// each entry's change and sees the tests it names fail: that is where an entry's claim and
// test names are read, and where a stale one shows.

const PAGES = [
  "README.md",
  "client/README.md",
  "bench/README.md",
  ...readdirSync("docs").map((name) => `docs/${name}`),
];

/** Each test file that a page's prose cites. */
const citedFiles = (text: string) =>
  [...text.replace(/```[\s\S]*?```/g, "").matchAll(/test\/[\w./-]+\.test\.ts/g)].map(([test]) => test);

/** Whether a file holds at least one test. */
const holdsTests = (file: string) => /\b(?:it|test)(?:\.\w+)*(?:\([^)]*\))?\(\s*["'`]/.test(readFileSync(file, "utf8"));

/** What is wrong with the pages and the list: cited files that are not there, or hold no test; entries that name none. */
const citationProblems = (pages: Record<string, string>, citations: Citation[]) => [
  ...Object.entries(pages).flatMap(([page, text]) =>
    citedFiles(text)
      .filter((test) => !existsSync(test) || !holdsTests(test))
      .map((test) => `${page} cites ${test}, which ${existsSync(test) ? "holds no test" : "does not exist"}`),
  ),
  ...citations
    .filter(({ test, shownBy, breaks }) => !existsSync(test) || !shownBy.length || !breaks.length)
    .map(({ page, test }) => `${page}'s entry for ${test}: no such file, or it names no test or no change`),
];

describe("the docs' citations of tests", () => {
  const pages = Object.fromEntries(PAGES.map((page) => [page, readFileSync(page, "utf8")]));

  it("name test files that exist and hold tests, and every entry names a file, tests and a change", () => {
    expect(citationProblems(pages, CITATIONS)).toEqual([]);
  });

  it("are found wanting for a missing file or an empty entry, and not for their words", () => {
    const entry: Citation = {
      page: "p.md",
      test: "test/worker/http/routing.test.ts",
      claim: "Allow is sent",
      shownBy: ["routing answers HEAD like GET, without a body"],
      breaks: [{ file: "src/app.ts", find: "a", replace: "b" }],
    };
    const cites = (claim: string, test = entry.test) => ({ "p.md": `${claim} (\`${test}\`).` });
    expect(citationProblems(cites("Allow is sent"), [entry])).toEqual([]);
    // Reworded, or cited with no entry, or an entry whose test was renamed: still backed.
    expect(citationProblems(cites("The Allow header goes out"), [])).toEqual([]);
    expect(citationProblems(cites("Allow is sent"), [{ ...entry, shownBy: ["a renamed test"] }])).toEqual([]);
    expect(citationProblems(cites("Allow is sent", "test/worker/http/no-such.test.ts"), [])).toEqual([
      "p.md cites test/worker/http/no-such.test.ts, which does not exist",
    ]);
    expect(citationProblems({}, [{ ...entry, breaks: [] }])).toHaveLength(1);
    expect(citationProblems({}, [{ ...entry, test: "test/worker/http/no-such.test.ts" }])).toHaveLength(1);
  });
});
