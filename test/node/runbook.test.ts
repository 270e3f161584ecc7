import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The README's "Operating it" is for a bad day: each command in it must exist as written.
// An `npm run` script must be in package.json; an `npx wrangler` command must be one that
// this wrangler knows, with every flag it is given.

const readme = readFileSync("README.md", "utf8");
const section = readme.slice(
  readme.indexOf("## Operating it\n"),
  readme.indexOf("\n## ", readme.indexOf("## Operating it\n") + 1),
);
const scripts: Record<string, string> = JSON.parse(readFileSync("package.json", "utf8")).scripts;

/** The commands of the section: each line of its code blocks (comments left out) and each inline code span. */
const commands = (() => {
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, body = ""]) =>
    body.split("\n").map((line) => line.replace(/\s+#.*$/, "").trim()),
  );
  const prose = section.replace(/```sh\n[\s\S]*?```/g, "").replace(/\n\s*/g, " ");
  const spans = [...prose.matchAll(/`([^`]+)`/g)].map(([, span = ""]) => span.trim());
  // Leading VAR=value settings are the shell's, not the command's.
  const withoutSettings = (command: string) => command.replace(/^(\w+=("[^"]*"|\S*)\s+)+/, "");
  return [...blocks, ...spans].map(withoutSettings).filter((command) => /^(npx wrangler|npm run) /.test(command));
})();

const wranglerCommands = [...new Set(commands.filter((command) => command.startsWith("npx wrangler ")))];
const npmCommands = [...new Set(commands.filter((command) => command.startsWith("npm run ")))];

describe("the runbook's commands", () => {
  it("include the ones it must have", () => {
    for (const needed of [
      "npx wrangler rollback",
      "npm run deploy:production",
      "npm run d1:replication",
      "npm run --silent backup",
    ]) {
      expect(
        commands.some((command) => command.startsWith(needed)),
        needed,
      ).toBe(true);
    }
  });

  it("name scripts of package.json", () => {
    for (const command of npmCommands) {
      const name = command
        .split(" ")
        .slice(2)
        .find((word) => !word.startsWith("-"));
      expect(name && scripts[name], `${command}: no script ${name}`).toBeTruthy();
    }
  });

  it("name commands of this wrangler, with flags it takes", async () => {
    const help = promisify(execFile);
    await Promise.all(
      wranglerCommands.map(async (command) => {
        const words = command.split(/\s+/).slice(2);
        const verbs = words.slice(
          0,
          words.findIndex((word) => !/^[a-z][a-z0-9-]*$/.test(word) || word.includes("petstore")),
        );
        const { stdout } = await help(process.execPath, ["node_modules/wrangler/bin/wrangler.js", ...verbs, "--help"], {
          env: { ...process.env, WRANGLER_HIDE_BANNER: "true", NO_COLOR: "1" },
        });
        // wrangler prints the help of the longest command it recognized: it must be all of `verbs`.
        expect(stdout.split("\n")[0], command).toMatch(new RegExp(`^wrangler ${verbs.join(" ")}( |$)`));
        for (const flag of words.filter((word) => word.startsWith("--"))) {
          expect(stdout, `${command}: ${flag}`).toContain(`${flag} `);
        }
      }),
    );
    expect(wranglerCommands.length).toBeGreaterThan(8);
  }, 60_000);
});
