import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import openapi from "../../../openapi.json";
import { type Prism, startPrism } from "../../../scripts/lib/prism";
import {
  exampleOf,
  type Operation,
  PETS_OPERATIONS,
  parameterOf,
  responseBodies,
} from "../../helpers/document-examples";

// Prism's mock of openapi.json, as a client's developer would run it: each pets operation,
// called with the examples of its parameters and body, answers with the example of each
// of its responses (`Prefer: code=<status>` picks one), and Prism finds nothing wrong
// with the request or the answer (it reports that in `sl-violations`).

const FILE = path.join(import.meta.dirname, "../../../openapi.json");
// The mock checks that a bearer token is sent, not which.
const KEY = `ps_test_${"0".repeat(43)}`;

const document = openapi as unknown as { paths: Record<string, Record<string, Operation>> };

const operations = Object.entries(document.paths).flatMap(([template, item]) =>
  Object.entries(item)
    .filter(([, { operationId }]) => PETS_OPERATIONS.includes(operationId))
    .map(([method, operation]) => ({ template, method, operation })),
);

// Prism's mock writes `Deprecation: true` on every answer of a deprecated operation, over
// the header's example, and then finds it wrong: that is the IETF draft's form, which
// RFC 9745 replaced with the "@<Unix seconds>" that the API sends and the document states.
const isPrismsDeprecation = ({ location }: { location: string[] }) =>
  location.join(".") === "response.header.deprecation";

/** What Prism found wrong with the request or the answer, less its own Deprecation header. */
const violations = (response: Response, deprecated: boolean) =>
  (JSON.parse(response.headers.get("sl-violations") ?? "[]") as { location: string[] }[]).filter(
    (violation) => !(deprecated && isPrismsDeprecation(violation)),
  );

/** The request that the examples of an operation's parameters and body make. */
const exampleRequest = (template: string, method: string, { parameters = [], requestBody }: Operation) => {
  let pathname = template;
  const query = new URLSearchParams();
  const headers = new Headers({ Authorization: `Bearer ${KEY}` });
  for (const parameter of parameters) {
    const { name, in: location, example } = parameterOf(parameter);
    if (location === "path") pathname = pathname.replace(`{${name}}`, encodeURIComponent(String(example)));
    else if (location === "query") query.set(name, String(example));
    else headers.set(name, String(example));
  }
  const json = requestBody?.content["application/json"];
  if (json) headers.set("Content-Type", "application/json");
  const search = query.size > 0 ? `?${query}` : "";
  return { path: `${pathname}${search}`, init: { method, headers, body: json && JSON.stringify(exampleOf(json)) } };
};

const cases = operations.flatMap(({ template, method, operation }) =>
  responseBodies(operation).map(({ status, shared, example }) => ({
    name: `${operation.operationId} ${status}`,
    deprecated: operation.deprecated === true,
    request: exampleRequest(template, method, operation),
    status,
    // A shared response names its examples by operation (`Prefer: example=<name>` picks one).
    prefer: [...(status >= 300 ? [`code=${status}`] : []), ...(shared ? [`example=${operation.operationId}`] : [])],
    body: example,
  })),
);

describe("prism mock openapi.json", () => {
  let prism: Prism;
  beforeAll(async () => {
    prism = await startPrism(["mock", FILE, "--cors=false"]);
  });
  afterAll(() => prism?.stop());
  beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`Prism's output:\n${prism.output()}`)));

  it("is asked for every response of the three pets operations", () => {
    expect(new Set(cases.map(({ name }) => name.split(" ")[0]))).toEqual(new Set(PETS_OPERATIONS));
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases)(
    "answers $name with its example, finding nothing wrong",
    async ({ request, status, body, deprecated, prefer }) => {
      const headers = new Headers(request.init.headers);
      if (prefer.length > 0) headers.set("Prefer", prefer.join(", "));
      const response = await fetch(new URL(request.path, prism.origin), { ...request.init, headers });
      expect(violations(response, deprecated)).toEqual([]);
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual(body);
    },
  );
});
