import { expect, it } from "vitest";
import { npmScript } from "../../e2e/helpers/npm-script";

// The repository's own checks, each as `npm run check:<name>` runs it: here rather than
// in line before the test run, so that they share its two cores with the other files.
// What each one checks: the comment at the top of its script.

it.concurrent.each(["check:migrations", "check:openapi", "check:client", "check:deploy"])(
  "npm run %s passes",
  async (script) => {
    const { code, stdout, stderr } = await npmScript(script, []);
    expect(code, `${stdout}${stderr}`).toBe(0);
  },
);
