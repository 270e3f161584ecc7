import { BaseSequencer, type TestSpecification } from "vitest/node";

// The projects share one group (vitest.config.ts), two files at a time. A worker (a Node
// process, or for the worker project a workerd runtime) is kept for the next file only if
// that file is of the same project; otherwise it is stopped, and the next file of its project
// starts another, which loads wrangler or the Worker again: a run whose order went from
// project to project started 16 of them. So each project's files run together, the projects
// in the order below, and within a project the slowest first, so that the two workers stay
// busy to the end: the run ends on the worker project's many small files.
//
// Vitest orders a run by the durations it cached from the last one, and without them (a
// fresh clone, CI) by size, which started the slowest last: the run then waited on one of
// them while the other worker sat idle. So the slowest are named here.

const PROJECTS = ["e2e", "node", "e2e-prism", "worker"];

/** The slowest files, slowest first (`npx vitest run --reporter=verbose` prints each one's time). */
const HEAVIEST = [
  "test/node/scripts/first-deploy.test.ts",
  "test/e2e/local/segment-open.test.ts",
  "test/e2e/local/dev-signals.test.ts",
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

/** A file's place: its project's, then its own among the heaviest (the others after them, tied). */
const rank = (spec: TestSpecification) => {
  const project = PROJECTS.indexOf(spec.project.name);
  const heavy = HEAVIEST.findIndex((file) => spec.moduleId.endsWith(file));
  return (
    (project === -1 ? PROJECTS.length : project) * (HEAVIEST.length + 1) + (heavy === -1 ? HEAVIEST.length : heavy)
  );
};

export class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    // The base order, then this one: by project, the heaviest first, the others as vitest has them.
    const grouped = await super.sort(files);
    return grouped.toSorted((a, b) => rank(a) - rank(b));
  }
}
