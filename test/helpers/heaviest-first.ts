import { BaseSequencer, type TestSpecification } from "vitest/node";

// The files that take longest start first, whatever their project: the projects share
// one group (vitest.config.ts), so that both workers stay busy from the first file to the
// last rather than waiting for each project's slowest file. Vitest orders a run by the
// durations it cached from the last one, and without them (a fresh clone, CI) by size,
// which started these last: the run then waited on one of them while the other worker
// sat idle.

/** The slowest files, slowest first (`npx vitest run --reporter=verbose` prints each one's time). */
const HEAVIEST = [
  "test/e2e/local/operator-scripts.test.ts",
  "test/e2e/local/outages.test.ts",
  "test/node/scripts/checks.test.ts",
  "test/worker/faults/memory-budget.test.ts",
  "test/e2e/local/docs-page.test.ts",
  "test/e2e/local/smoke.test.ts",
  "test/e2e/local/mcp.test.ts",
  "test/e2e/local/oauth.test.ts",
  "test/e2e/local/load.test.ts",
  "test/node/scripts/deploy.test.ts",
  "test/e2e/local/browser.test.ts",
  "test/e2e/local/client-package.test.ts",
  "test/worker/pets/properties.test.ts",
  "test/e2e/local/oauth-refusals.test.ts",
  "test/node/scripts/d1-replication.test.ts",
  "test/e2e/local/secret-rotation.test.ts",
];

const rank = (spec: TestSpecification) => {
  const index = HEAVIEST.findIndex((file) => spec.moduleId.endsWith(file));
  return index === -1 ? HEAVIEST.length : index;
};

export class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    // The base order, then this one: the heaviest first, the others as vitest has them.
    const grouped = await super.sort(files);
    return grouped.toSorted((a, b) => rank(a) - rank(b));
  }
}
