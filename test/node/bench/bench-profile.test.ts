import { describe, expect, it } from "vitest";
import { modulesOf, type Profile, samplesByItem } from "../../../bench/inspector";

// `npm run bench:profile` sums a CPU profile's samples by the module of the bundle that each
// sampled function is written in (bench/inspector.ts), as esbuild marks the modules of an
// unminified bundle. The paths in those marks depend on where the bundle was built.

const BUNDLE_URL = "file:///repo/.wrangler/tmp/dev-x/index.js";

/** A bundle of four modules, their marks written from `prefix`, and a function sampled in each. */
const bundleFrom = (prefix: string) => {
  const source = [
    "// .wrangler/tmp/bundle-x/middleware-loader.entry.ts",
    "var wrap = () => {};",
    "// src/db/clean-up.ts",
    "var cleanUp = () => {};",
    `// ${prefix}node_modules/zod/v4/core/schemas.js`,
    "var parse = () => {};",
    `// ${prefix}node_modules/@hono/zod-validator/src/index.ts`,
    "var zValidator = () => {};",
    "// https://example.com/src/not-a-mark.ts",
    "var underUrl = () => {};",
  ].join("\n");
  return { url: BUNDLE_URL, modules: modulesOf(source) };
};

/** A profile of one sample, of `microseconds`, at each of these lines of the bundle. */
const profileAt = (lines: [functionName: string, lineNumber: number, microseconds: number][]): Profile => ({
  nodes: lines.map(([functionName, lineNumber], index) => ({
    id: index + 1,
    callFrame: { functionName, url: BUNDLE_URL, lineNumber },
  })),
  samples: lines.map((_, index) => index + 1),
  timeDeltas: lines.map(([, , microseconds]) => microseconds),
});

const SAMPLES = profileAt([
  ["wrap", 1, 1],
  ["cleanUp", 3, 10],
  ["parse", 5, 100],
  ["zValidator", 7, 1000],
  ["underUrl", 9, 10000],
]);

describe("bench:profile's modules", () => {
  it.each([
    ["a checkout", ""],
    ["a worktree whose node_modules is another checkout's", "../../work/main/"],
  ])("are told apart in %s", (_, prefix) => {
    expect(Object.fromEntries(samplesByItem(SAMPLES, bundleFrom(prefix)))).toEqual({
      "wrangler dev's middleware": 1,
      "src/db/clean-up.ts": 10,
      zod: 100,
      // A package's own src/ is the package's; a line that merely holds a path is no mark.
      "@hono/zod-validator": 11000,
    });
  });

  it("name the functions of the one asked for", () => {
    const items = samplesByItem(SAMPLES, bundleFrom("../../work/main/"), "zod");
    expect(items.get("zod: parse")).toBe(100);
    expect(items.has("zod")).toBe(false);
  });
});
