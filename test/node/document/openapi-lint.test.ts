import { readFileSync } from "node:fs";
import path from "node:path";
import "@hyperjump/json-schema/formats";
import { BASIC } from "@hyperjump/json-schema/experimental";
import { setShouldValidateFormat, validate } from "@hyperjump/json-schema/openapi-3-1";
import { lintFromString, loadConfig } from "@redocly/openapi-core";
import { Document, Ruleset, Spectral } from "@stoplight/spectral-core";
import Parsers from "@stoplight/spectral-parsers";
import { describe, expect, it } from "vitest";

// Redocly's "recommended" rules and Spectral's (its OpenAPI rules and the OWASP API
// Security ruleset), as redocly.yaml and .spectral.mjs set them: every problem, warnings
// included, is a failure; the rules those files switch off say why.
const ROOT = path.join(import.meta.dirname, "../../..");
const FILE = path.join(ROOT, "openapi.json");

const redocly = async (source: string) => {
  const config = await loadConfig({ configPath: path.join(ROOT, "redocly.yaml") });
  const problems = await lintFromString({ source, absoluteRef: FILE, config });
  return problems.map(
    ({ severity, ruleId, message, location }) => `${severity} ${ruleId} at ${location[0]?.pointer}: ${message}`,
  );
};

const spectral = async (source: string) => {
  const RULESET = path.join(ROOT, ".spectral.mjs");
  const linter = new Spectral();
  linter.setRuleset(new Ruleset((await import(RULESET)).default, { source: RULESET }));
  const problems = await linter.run(new Document(source, Parsers.Json, FILE));
  return problems.map(({ severity, code, path: at, message }) => `${severity} ${code} at ${at.join("/")}: ${message}`);
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
    expect(await redocly(readFileSync(FILE, "utf8"))).toEqual([]);
  });

  it("would fail Redocly's rules if it were broken", async () => {
    const broken = JSON.parse(readFileSync(FILE, "utf8"));
    delete broken.info.version;
    delete broken.info.license;
    broken.paths["/pets"].get.responses["200"].content["application/json"].schema = { type: "pet" };
    const problems = (await redocly(JSON.stringify(broken))).join("\n");
    expect(problems).toContain("#/info");
    expect(problems).toContain("info-license");
    expect(problems).toContain("/schema/type");
  });

  it("passes Spectral's OpenAPI rules and the OWASP API Security ruleset", async () => {
    expect(await spectral(readFileSync(FILE, "utf8"))).toEqual([]);
  });

  it("would fail Spectral's rules if a limit, a CORS header or the rate-limit policy went undescribed", async () => {
    const broken = JSON.parse(readFileSync(FILE, "utf8"));
    delete broken.components.schemas.Pets.maxItems;
    delete broken.components.parameters.Bookmark.schema.maxLength;
    delete broken.paths["/pets"].get.responses["200"].headers["Access-Control-Allow-Origin"];
    delete broken.paths["/pets"].post.responses["201"].headers["RateLimit-Policy"];
    delete broken.info.contact;
    const problems = await spectral(JSON.stringify(broken));
    expect(problems.map((problem) => problem.replace(/: .*/, "")).sort()).toEqual([
      "0 owasp:api4:2023-array-limit at components/schemas/Pets",
      "0 owasp:api4:2023-string-limit at components/parameters/Bookmark/schema",
      "0 owasp:api8:2023-define-cors-origin at paths//pets/get/responses/200/headers",
      "0 rate-limit-policy at paths//pets/post/responses/201/headers",
      "1 info-contact at info",
    ]);
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
