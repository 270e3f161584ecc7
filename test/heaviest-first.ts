import { BaseSequencer, type TestSpecification } from "vitest/node";

// Within each project, the files that take longest start first. Vitest orders a run by
// the durations it cached from the last one, and without them (a fresh clone, CI) by
// size, which started these last: a project then waited on one of them while its other
// worker sat idle (the workerd project for 8 s of its 30, on two cores).

/** The slowest files, slowest first (`npx vitest run --reporter=verbose` prints each one's time). */
const HEAVIEST = [
  "test/memory-budget.test.ts",
  "test/properties.test.ts",
  "test/faults.test.ts",
  "test/node/checks.test.ts",
  "test/node/d1-replication.test.ts",
  "test/node/docs-page.test.ts",
  "test/node/deploy.test.ts",
  "test/e2e/local/operator-scripts.test.ts",
  "test/e2e/local/outages.test.ts",
  "test/e2e/local/smoke.test.ts",
  "test/e2e/local/secret-rotation.test.ts",
  "test/e2e/local/browser.test.ts",
  "test/e2e/local/load.test.ts",
];

const rank = (spec: TestSpecification) => {
  const index = HEAVIEST.findIndex((file) => spec.moduleId.endsWith(file));
  return index === -1 ? HEAVIEST.length : index;
};

export class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    // The base order keeps the projects' groups apart; within a project, this order wins.
    const grouped = await super.sort(files);
    const start = (spec: TestSpecification) => grouped.findIndex((other) => other.project === spec.project);
    return grouped.toSorted((a, b) => start(a) - start(b) || rank(a) - rank(b));
  }
}
