// Every test the docs cite for a claim: the claim's words, the tests in the cited file that
// show it, and a change that makes the claim false, under which those tests must fail.
// `npm test` (../citations.test.ts) holds the list against the pages and the test files;
// `npm run test:citations` (../break-citations.ts) makes each change in turn and runs the tests it names.

/** A change to one file: `find` occurs in it exactly once, and is replaced. */
export type Edit = { file: string; find: string; replace: string };

export type Citation = {
  /** The page, and the test file it cites. */
  page: string;
  test: string;
  /** Words of the sentence, list item or table row that cites it (spaces as in one line). */
  claim: string;
  /** Names of tests in the file that show the claim, as vitest names them (`%s` filled in). */
  shownBy: string[];
  /** What makes the claim false: the tests named must then fail. */
  breaks: Edit[];
};

export const edit = (file: string, find: string, replace: string): Edit => ({ file, find, replace });
