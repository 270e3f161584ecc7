import { readFileSync } from "node:fs";
import path from "node:path";
import "@hyperjump/json-schema/formats";
import { BASIC } from "@hyperjump/json-schema/experimental";
import { setShouldValidateFormat, validate } from "@hyperjump/json-schema/openapi-3-1";
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

// The OpenAPI Initiative's JSON Schema of OpenAPI 3.1 documents, in its "schema-base"
// form: every Schema Object in the document is checked against the OpenAPI dialect
// (JSON Schema 2020-12 and the OAS vocabulary) as well. @hyperjump/json-schema ships
// these schemas and evaluates $dynamicRef and vocabularies, which the dialect needs and
// @cfworker/json-schema does not do. Formats are asserted, not only annotated.
const OAS_3_1_SCHEMA_BASE = "https://spec.openapis.org/oas/3.1/schema-base";
setShouldValidateFormat(true);

const schemaProblems = async (source: string) => {
  const output = await validate(OAS_3_1_SCHEMA_BASE, JSON.parse(source), BASIC);
  return output.valid
    ? []
    : (output.errors ?? []).map(
        ({ instanceLocation, absoluteKeywordLocation }) => `${instanceLocation}: ${absoluteKeywordLocation}`,
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

  it("is valid against the official OpenAPI 3.1 JSON Schema and its Schema Object dialect", async () => {
    expect(await schemaProblems(readFileSync(FILE, "utf8"))).toEqual([]);
  });

  it("would fail that schema if it were broken", async () => {
    const broken = JSON.parse(readFileSync(FILE, "utf8"));
    delete broken.info.version;
    broken.components.schemas.Pet.properties.id.minimum = "1";
    const problems = (await schemaProblems(JSON.stringify(broken))).join("\n");
    expect(problems).toContain("#/info: https://spec.openapis.org/oas/3.1/schema");
    expect(problems).toContain("#/components/schemas/Pet/properties/id/minimum: https://json-schema.org/draft/2020-12");
  });
});
