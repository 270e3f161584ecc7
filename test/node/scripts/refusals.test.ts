import { describe, expect, it } from "vitest";
import { runApps } from "../../../scripts/apps";
import { runBackup } from "../../../scripts/backup";
import { setReadReplication } from "../../../scripts/d1-replication";
import { parseKeyArguments } from "../../../scripts/lib/key-arguments";
import { nearest } from "../../../scripts/lib/options";
import { parseSeedCount } from "../../../scripts/seed";
import { parseOpenOptions } from "../../../scripts/segments/open";
import { runUsage } from "../../../scripts/usage";

// Every operator script refuses a wrong flag or value in the project's words (scripts/lib/options.ts):
// it names what was wrong and, where there is one, the nearest right one, before it reads or
// writes anything. What a refusal looks like as a process: test/node/scripts/commands.test.ts.

const NOW = Date.parse("2026-12-01T00:00:00Z");

describe("a mistyped flag", () => {
  it.each([
    ["apps", () => runApps(["--remve", "abc"]), "There is no option --remve: did you mean --remove?"],
    ["backup", () => runBackup(["backup", "--output", "x.sql", "--forse"]), "did you mean --force?"],
    ["restore", () => runBackup(["restore", "--inptu", "x.sql"]), "did you mean --input?"],
    ["usage:deprecated", () => runUsage(["--day", "3"]), "did you mean --days?"],
    ["key:create", () => parseKeyArguments(["create", "ci", "--scpoe", "read"], NOW), "did you mean --scope?"],
    [
      "d1:replication",
      () => setReadReplication(["--env", "staging", "--bindng", "PETS_1"], {}),
      "did you mean --binding?",
    ],
    ["segment:open", async () => parseOpenOptions(["--persist", "x"]), "did you mean --persist-to?"],
  ])("is named, with the flag meant, by %s", async (_, run, said) => {
    const refusal = run();
    await expect(refusal).rejects.toThrow(said);
    await expect(refusal).rejects.not.toThrow(/To specify a positional|Unknown option/);
  });

  it("far from every flag is named, with the flags there are", async () => {
    await expect(runApps(["--zzzzzz"])).rejects.toThrow(
      "There is no option --zzzzzz: it takes --env, --remote, --persist-to, --remove.",
    );
  });

  it("that takes a value and has none, or takes none and has one, says so", async () => {
    await expect(runApps(["--remove"])).rejects.toThrow("--remove takes a value: --remove <value>.");
    await expect(runApps(["--remote=yes"])).rejects.toThrow("--remote takes no value.");
    await expect(runApps(["list"])).rejects.toThrow("'list' is not an option, and this command takes nothing else.");
  });
});

describe("a wrong value", () => {
  it("of --env names the environment meant", async () => {
    await expect(runApps(["--env", "prod", "--remote"])).rejects.toThrow("--env is 'prod': did you mean production?");
    await expect(runApps(["--env", "qa", "--remote"])).rejects.toThrow(
      "--env is 'qa'. It must be staging or production",
    );
    await expect(setReadReplication(["--env", "stagign"], {})).rejects.toThrow(
      "--env is 'stagign': did you mean staging?",
    );
  });

  it("of seed's --count names the number meant, in digits", () => {
    expect(() => parseSeedCount("1e3")).toThrow("--count is '1e3': did you mean --count 1000?");
    expect(() => parseSeedCount(" 20")).toThrow("--count is ' 20': did you mean --count 20?");
    expect(() => parseSeedCount("many")).toThrow("--count is 'many'. It must be decimal digits, 0 to 1000000.");
    expect(() => parseSeedCount(undefined)).toThrow("--count is missing");
    expect(parseSeedCount("1000")).toBe(1000);
  });

  it("of a key's --scope names the scope meant", async () => {
    await expect(parseKeyArguments(["create", "ci", "--scope", "wirte"], NOW)).rejects.toThrow(
      "not 'wirte': did you mean write?",
    );
  });

  it("of a key command says what it lacks, or what it has too many of", async () => {
    await expect(parseKeyArguments(["create"], NOW)).rejects.toThrow("key:create needs a label");
    await expect(parseKeyArguments(["revoke"], NOW)).rejects.toThrow("key:revoke needs the key, or its hash");
    await expect(parseKeyArguments(["create", "billing", "service"], NOW)).rejects.toThrow(
      'key:create takes one argument, and was given 2: quote a label with spaces ("billing service").',
    );
    await expect(parseKeyArguments(["list", "x"], NOW)).rejects.toThrow("key:list takes no argument");
    await expect(parseKeyArguments(["craete", "x"], NOW)).rejects.toThrow(
      "There is no key command 'craete': did you mean key:create?",
    );
  });

  it("of restore's --input names the file meant beside it, and restores nothing", async () => {
    await expect(runBackup(["restore", "--input", "package.jsn"])).rejects.toThrow("There is no file package.jsn.");
    await expect(runBackup(["restore", "--input", "drizzle/0000_create_pets.sq"])).rejects.toThrow(
      "There is no file drizzle/0000_create_pets.sq: did you mean drizzle/0000_create_pets.sql? Nothing was restored.",
    );
  });
});

describe("the nearest right one", () => {
  it("is within a third of its letters' edits, one at least, and otherwise none", () => {
    expect(nearest("remve", ["remove", "env"])).toBe("remove");
    expect(nearest("env", ["env", "remote"])).toBe("env");
    expect(nearest("en", ["env"])).toBe("env");
    expect(nearest("inptu", ["input", "output"])).toBe("input");
    expect(nearest("prod", ["staging", "production"])).toBe("production");
    expect(nearest("xyz", ["env"])).toBeUndefined();
    expect(nearest("stage", ["production"])).toBeUndefined();
  });
});
