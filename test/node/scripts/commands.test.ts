import { expect, it } from "vitest";
import { npmScript } from "../../e2e/helpers/npm-script";

// The operator commands that test/e2e/local/operator-scripts.test.ts runs through their
// functions in its own process, each here as an operator types it: a process that refuses
// what it cannot take, before opening any store, with exit code 1 and the reason on stderr.
// (`npm run key:create` runs as a process there, a key made and a refusal.)

it.concurrent.each([
  ["apps", ["--remove", "no/such"], /^--remove takes a client id/],
  ["key:grants", ["not-a-key"], /^Pass the key itself, or the hash/],
  ["usage:deprecated", ["--days", "0"], /^--days must be a whole number of days, at least 1\.$/],
  ["backup", [], /^Usage:\n {2}npm run --silent backup/],
  ["restore", ["--input", "dump.sql", "--force"], /^Usage:\n {2}npm run --silent backup/],
  // Each wrong flag or value named in the project's words (test/node/scripts/refusals.test.ts has them all).
  ["seed", ["--count", "1e3"], /^--count is '1e3': did you mean --count 1000\?/],
  ["key:create", [], /^key:create needs a label/],
  ["apps", ["--remve", "x"], /^There is no option --remve: did you mean --remove\?/],
])("npm run %s %j refuses, with exit code 1", async (script, args, reason) => {
  const { code, stdout, stderr } = await npmScript(script, args);
  expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
  expect(stderr.trim()).toMatch(reason);
});
