import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { npmScript } from "../../e2e/helpers/npm-script";

// The repository's own checks, each as `npm run check:<name>` runs it: here rather than
// in line before the test run, so that they share its two cores with the other files.
// What each one checks: the comment at the top of its script. The sizes two of them
// measure are the ones the docs quote: a figure that differs fails here, in the same run.

const run = async (script: string) => {
  const { code, stdout, stderr } = await npmScript(script, []);
  expect(code, `${stdout}${stderr}`).toBe(0);
  return stdout;
};

it.concurrent.each(["check:migrations", "check:openapi"])("npm run %s passes", async (script) => {
  await run(script);
});

it.concurrent("npm run check:client passes, at most 4 KiB, which client/README.md states", async () => {
  const bytes = Number(/minified it is (\d+) bytes gzip \(budget 4096\)/.exec(await run("check:client"))?.[1]);
  expect(bytes).toBeGreaterThan(0);
  expect(readFileSync("client/README.md", "utf8")).toContain("4 KiB minified and gzipped");
});

it.concurrent("npm run check:deploy passes, and the docs quote the Workers' sizes it measures", async () => {
  const output = await run("check:deploy");
  const measured = (pattern: RegExp) => {
    const sizes = [...output.matchAll(pattern)].map(([, size]) => size);
    // Staging and production build the same Workers.
    expect(sizes).toHaveLength(2);
    expect(new Set(sizes).size).toBe(1);
    return sizes[0] as string;
  };
  const size = measured(/built the Worker, ([\d.]+) KiB gzip \(budget 80 KiB\)/g);
  const signIn = measured(/built the sign-in Worker, ([\d.]+) KiB gzip \(budget 40 KiB\)/g);
  const architecture = readFileSync("docs/architecture.md", "utf8").replace(/\s+/g, " ");
  expect(architecture).toMatch(
    new RegExp(`enforces and prints \\(${size.replace(".", "\\.")} KiB on \\d{4}-\\d\\d-\\d\\d\\)`),
  );
  expect(architecture).toContain(`the sign-in Worker is ${signIn} KiB gzip`);
  expect(readFileSync("docs/mcp.md", "utf8").replace(/\s+/g, " ")).toContain(`the Worker is ${size} KiB with it`);
});
