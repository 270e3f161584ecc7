import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { npmScript } from "../../e2e/helpers/npm-script";

// The repository's own checks, each as `npm run check:<name>` runs it: here rather than
// in line before the test run, so that they share its two cores with the other files.
// What each one checks: the comment at the top of its script. The docs quote the budgets
// they hold the sizes to; a size the docs quote is a measurement, with its date and commit
// (test/node/document/docs-prose.test.ts), so that a change of a few bytes needs no edit.

const run = async (script: string) => {
  const { code, stdout, stderr } = await npmScript(script, []);
  expect(code, `${stdout}${stderr}`).toBe(0);
  return stdout;
};

it.concurrent.each(["check:migrations", "check:openapi"])("npm run %s passes", async (script) => {
  await run(script);
});

it.concurrent("npm run check:client passes, at most 5 KiB, which client/README.md states", async () => {
  const bytes = Number(/minified it is (\d+) bytes gzip \(budget 5120\)/.exec(await run("check:client"))?.[1]);
  expect(bytes).toBeGreaterThan(0);
  expect(readFileSync("client/README.md", "utf8")).toContain("5 KiB minified and gzipped");
});

it.concurrent("npm run check:deploy passes, within the budgets the docs quote: 80 KiB for the API, 40 KiB for the sign-in Worker", async () => {
  const output = await run("check:deploy");
  // Staging and production build the same two Workers, each checked against its budget.
  expect(output.match(/built the Worker, [\d.]+ KiB gzip \(budget 80 KiB\)/g)).toHaveLength(2);
  expect(output.match(/built the sign-in Worker, [\d.]+ KiB gzip \(budget 40 KiB\)/g)).toHaveLength(2);
  const architecture = readFileSync("docs/architecture.md", "utf8").replace(/\s+/g, " ");
  expect(architecture).toContain("under its budget of 80 KiB gzip, which `npm run check:deploy` enforces");
  expect(architecture).toContain("within its own budget of 40 KiB, which `npm run check:deploy` enforces");
});
