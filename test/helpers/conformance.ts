// Checks a response of the Worker against openapi.json: its status is declared for
// the operation (or, for a path the document lacks, is the NotFound response, or the
// Unauthorized one under /pets/, which checks the key before routing), its
// headers are declared and valid, its body is valid against the declared schema.
// test/helpers/index.ts and the e2e client run it on every response, so no test has to
// remember to; only the answers to CORS preflights are left out, and those that a test
// names as outside the contract (`outsideContract`, with its reason).
//
// Inside workerd, eval and new Function are forbidden: @cfworker/json-schema
// interprets schemas instead of compiling them as Ajv would.
import { type Schema, Validator } from "@cfworker/json-schema";
import openapi from "../../openapi.json";
import { type OpenApi, resolvePointer } from "../../src/document/reference-page/document";

type ResponseObject = OpenApi.ResponseObject;

/**
 * A private copy, since the validator annotates the schemas it reads, and without the
 * examples: @cfworker/json-schema takes an `id` member anywhere for a schema's id, so an
 * example pet would read as a second schema with the same one.
 */
const withoutExamples = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutExamples)
    : value && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([name]) => name !== "example" && name !== "examples")
            .map(([name, member]) => [name, withoutExamples(member)]),
        )
      : value;
const document = withoutExamples(openapi) as {
  servers: OpenApi.ServerObject[];
  paths: Record<string, Record<string, OpenApi.OperationObject & { responses: OpenApi.ResponsesObject }>>;
};
const DOCUMENT_URI = "https://petstore.invalid/openapi.json";

// Transport headers, not the operation's: the body's framing and encoding, what caches key
// on, and what HTTP servers and Cloudflare's edge add to every answer over the wire.
const UNDECLARED_HEADERS = new Set([
  "content-type",
  "content-length",
  "vary",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "server",
  "alt-svc",
  "cf-ray",
  "cf-cache-status",
  "nel",
  "report-to",
  "server-timing",
]);

// Every server carries the same prefix (/v1); paths in the document follow it.
const prefixes = new Set(document.servers.map(({ url }) => new URL(url.replaceAll(/[{}]/g, "")).pathname));
if (prefixes.size !== 1) throw new Error(`openapi.json: servers disagree on the path prefix: ${[...prefixes]}`);
const [PREFIX = ""] = prefixes;

const templates = Object.keys(document.paths).map((template) => ({
  template,
  // A parameter may be empty, as in /v1/pets/: tools that read the document (Prism) take
  // that path for getPet's, so the API answers it like one.
  pattern: new RegExp(`^${PREFIX}${template.replaceAll(/\{[^}]+\}/g, "[^/]*").replaceAll(".", "\\.")}$`),
}));

const escapePointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");
const pointerOf = (...segments: string[]) => `/${segments.map(escapePointer).join("/")}`;

/** Follows $refs (within the document) to the object and the pointer where it lives. */
const follow = <T>(pointer: string): { pointer: string; value: T } => {
  const value = resolvePointer(document, pointer) as T | OpenApi.ReferenceObject;
  if (value && typeof value === "object" && "$ref" in value) return follow<T>(value.$ref.slice(1));
  return { pointer, value: value as T };
};

const validators = new Map<string, Validator>();
/** One validator per schema in the document, built on first use; $refs resolve within the document. */
const validate = (pointer: string, instance: unknown) => {
  let validator = validators.get(pointer);
  if (!validator) {
    validator = new Validator({ $ref: `${DOCUMENT_URI}#${pointer}` }, "2020-12", false);
    validator.addSchema(document as unknown as Schema, DOCUMENT_URI);
    validators.set(pointer, validator);
  }
  const { valid, errors } = validator.validate(instance);
  return valid
    ? []
    : errors.filter(({ keyword }) => keyword !== "$ref").map((error) => `${error.instanceLocation}: ${error.error}`);
};

type Documented = { pointer: string; label: string } | { problem: string };

/** Where the document describes this method, path and status. */
const findResponse = (method: string, path: string, status: number): Documented => {
  const template = templates.find(({ pattern }) => pattern.test(path))?.template;
  if (!template) {
    if (status === 404) return { pointer: pointerOf("components", "responses", "NotFound"), label: "an unknown path" };
    if (status === 401 && path.startsWith(`${PREFIX}/pets/`)) {
      return { pointer: pointerOf("components", "responses", "Unauthorized"), label: "an unknown path under /pets/" };
    }
    return { problem: `the path is not in the document, so the status must be 404, not ${status}` };
  }
  const pathItem = document.paths[template] ?? {};
  // HEAD is answered like GET, without a body.
  const operation = pathItem[method === "head" ? "get" : method];
  if (operation) {
    const label = `${operation.operationId} (${method.toUpperCase()} ${template})`;
    const key = String(status) in operation.responses ? String(status) : "default";
    if (!(key in operation.responses)) return { problem: `${label} does not declare the status ${status}` };
    return { pointer: pointerOf("paths", template, method === "head" ? "get" : method, "responses", key), label };
  }
  // A method the path lacks: the path's own error responses (405, and what comes before routing).
  for (const [name, other] of Object.entries(pathItem)) {
    if (status >= 400 && String(status) in other.responses) {
      return { pointer: pointerOf("paths", template, name, "responses", String(status)), label: template };
    }
  }
  return { problem: `${template} has no ${method.toUpperCase()} operation, and no operation of it declares ${status}` };
};

const checkHeaders = (response: Response, responsePointer: string, declared: ResponseObject["headers"] = {}) => {
  const problems: string[] = [];
  const names = new Set(Object.keys(declared).map((name) => name.toLowerCase()));
  for (const name of Object.keys(declared)) {
    const { pointer, value } = follow<OpenApi.HeaderObject>(`${responsePointer}/headers/${escapePointer(name)}`);
    const sent = response.headers.get(name);
    if (sent === null) {
      if (value.required) problems.push(`the required header ${name} is missing`);
      continue;
    }
    for (const error of validate(`${pointer}/schema`, sent))
      problems.push(`header ${name} ${JSON.stringify(sent)} ${error}`);
  }
  for (const [name] of response.headers) {
    if (!names.has(name) && !UNDECLARED_HEADERS.has(name)) problems.push(`the header ${name} is not declared`);
  }
  return problems;
};

const checkBody = async (method: string, response: Response, pointer: string, content: ResponseObject["content"]) => {
  if (method === "head") return [];
  // A clone, so that the test still reads the body itself.
  const text = await response.clone().text();
  if (!content) return text === "" ? [] : ["a body is sent where none is declared"];
  const mediaType = response.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!(mediaType in content)) return [`the media type ${JSON.stringify(mediaType)} is not declared`];
  const schemaPointer = `${pointer}/content/${escapePointer(mediaType)}/schema`;
  if (!/^application\/([\w.-]+\+)?json$/.test(mediaType)) return validate(schemaPointer, text);
  try {
    return validate(schemaPointer, JSON.parse(text)).map((error) => `body ${error}`);
  } catch {
    return ["the body is not JSON"];
  }
};

/** Everything in which the response departs from openapi.json; empty when it conforms. */
export const conformanceProblems = async (request: Request, response: Response): Promise<string[]> => {
  const method = request.method.toLowerCase();
  // A CORS preflight's answer: the browser's protocol, which OpenAPI does not describe
  // (test/worker/http/cors.test.ts and the browser test check it). A plain OPTIONS is checked.
  const isPreflight = request.headers.has("origin") && request.headers.has("access-control-request-method");
  if (method === "options" && isPreflight) return [];
  const found = findResponse(method, new URL(request.url).pathname, response.status);
  if ("problem" in found) return [found.problem];
  const { pointer, value } = follow<ResponseObject>(found.pointer);
  return [
    ...checkHeaders(response, pointer, value.headers),
    ...(await checkBody(method, response, pointer, value.content)),
  ];
};

/** Throws, failing the test, when the response departs from openapi.json. */
export const expectConformance = async (request: Request, response: Response) => {
  const problems = await conformanceProblems(request, response);
  if (problems.length > 0) {
    throw new Error(
      `${request.method} ${new URL(request.url).pathname} answered ${response.status}, which openapi.json does not describe:\n- ${problems.join("\n- ")}`,
    );
  }
};
