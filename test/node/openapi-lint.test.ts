import { readFileSync } from "node:fs";
import path from "node:path";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";

// Redocly's linter: the structure of OpenAPI 3.1 and the "recommended" rules. Its
// warnings count as failures too; the rules turned off say why.
const FILE = path.join(import.meta.dirname, "../../openapi.json");

const lint = async (source: string) => {
  const config = await createConfig({
    extends: ["recommended"],
    rules: {
      // A private API: there is no license to name.
      "info-license": "off",
      // The local server (`npm run dev`) is listed on purpose.
      "no-server-example.com": "off",
      // NotFound also answers every path outside the document, so it stays a component
      // even when no operation refers to it.
      "no-unused-components": "off",
    },
  });
  const problems = await lintFromString({ source, absoluteRef: FILE, config });
  return problems.map(
    ({ severity, ruleId, message, location }) => `${severity} ${ruleId} at ${location[0]?.pointer}: ${message}`,
  );
};

describe("openapi.json", () => {
  it("is valid OpenAPI 3.1 and passes Redocly's recommended rules", async () => {
    expect(await lint(readFileSync(FILE, "utf8"))).toEqual([]);
  });

  it("would fail the linter if it were broken", async () => {
    const broken = JSON.parse(readFileSync(FILE, "utf8"));
    delete broken.info.version;
    broken.paths["/pets"].get.responses["200"].content["application/json"].schema = { type: "pet" };
    const problems = await lint(JSON.stringify(broken));
    expect(problems.join("\n")).toContain("#/info");
    expect(problems.join("\n")).toContain("/schema/type");
  });
});
