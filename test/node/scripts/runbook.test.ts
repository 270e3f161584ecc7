import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { experimental_getWranglerCommands } from "wrangler";
import { DEPLOYED_ENVIRONMENTS } from "../../../scripts/lib/target";

// docs/operations.md is for a bad day: each command in it must exist as written. An
// `npm run` script must be in package.json; an `npx wrangler` command must be one that
// this wrangler knows (its own command tree, as its --help prints it), with every flag it
// is given.

const section = readFileSync("docs/operations.md", "utf8");
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
// `npm run deploy:<environment>` stands for each environment's script.
const npmCommands = [
  ...new Set(
    commands
      .filter((command) => command.startsWith("npm run "))
      .flatMap((command) =>
        command.includes("<environment>")
          ? DEPLOYED_ENVIRONMENTS.map((env) => command.replace("<environment>", env))
          : [command],
      ),
  ),
];

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

  it("name commands of this wrangler, with flags it takes", () => {
    const { registry, globalFlags } = experimental_getWranglerCommands();
    for (const command of wranglerCommands) {
      const words = command.split(/\s+/).slice(2);
      const firstArgument = words.findIndex((word) => !/^[a-z][a-z0-9-]*$/.test(word) || word.includes("petstore"));
      const verbs = firstArgument < 0 ? words : words.slice(0, firstArgument);
      const node = verbs.reduce<typeof registry | undefined>((at, verb) => at?.subtree.get(verb), registry);
      expect(node?.definition?.type, `${command}: no command 'wrangler ${verbs.join(" ")}'`).toBe("command");
      const flags = new Set([
        ...Object.keys(globalFlags),
        ...Object.keys(node?.definition?.type === "command" ? (node.definition.args ?? {}) : {}),
      ]);
      for (const flag of words.filter((word) => word.startsWith("--"))) {
        expect(flags.has(flag.slice(2).split("=")[0] ?? ""), `${command}: ${flag}`).toBe(true);
      }
    }
    expect(wranglerCommands.length).toBeGreaterThan(8);
  });
});
