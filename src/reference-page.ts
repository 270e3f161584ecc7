// The API reference page (GET /v1/docs), rendered from the OpenAPI document as plain
// HTML: no script, no file to fetch, so the page is one small response and the Worker
// needs no static assets, whose router wrangler dev and Cloudflare would otherwise put
// in front of every API request. It renders the parts of OpenAPI 3.1 that
// scripts/openapi-document.ts writes.

type Reference = { $ref: string };
type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Header = { description?: string; schema?: Schema };
type Content = Record<string, { schema?: Schema; example?: unknown }>;
type Response = { description: string; headers?: Record<string, Header | Reference>; content?: Content };
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: unknown[];
  parameters?: (Parameter | Reference)[];
  requestBody?: { description?: string; required?: boolean; content: Content };
  responses: Record<string, Response | Reference>;
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  security?: unknown[];
  servers?: {
    url: string;
    description?: string;
    variables?: Record<string, { default: string; description?: string }>;
  }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas?: Record<string, Schema>;
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>;
  };
};

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
const code = (value: unknown) =>
  `<code>${escapeHtml(typeof value === "string" ? value : JSON.stringify(value))}</code>`;
/** The Markdown the document's descriptions use: paragraphs and `code`. */
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
const prose = (text: string | undefined) =>
  (text ?? "")
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== "")
    .map((paragraph) => `<p>${inline(paragraph)}</p>`)
    .join("");

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

const isReference = (value: object): value is Reference => "$ref" in value;
const referenceName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);
const schemaAnchor = (name: string) => `schema-${escapeHtml(name)}`;
const methodBadge = (method: string) =>
  `<span class="method method-${escapeHtml(method.toLowerCase())}">${escapeHtml(method)}</span>`;

/** One line for a schema: its type (schemas by name link to their section) and its constraints. */
const schemaSummary = (schema: Schema | undefined): string => {
  if (!schema) return "";
  const parts: string[] = [];
  if (schema.$ref) {
    const name = referenceName(schema.$ref);
    parts.push(`<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`);
  }
  for (const part of schema.allOf ?? []) parts.push(schemaSummary(part));
  if (schema.type) {
    const types = [schema.type].flat().join(" or ");
    const items = schema.items ? ` of ${schemaSummary(schema.items)}` : "";
    parts.push(`${escapeHtml(types)}${schema.format ? ` (${escapeHtml(schema.format)})` : ""}${items}`);
  }
  if (schema.enum) parts.push(`one of ${schema.enum.map(code).join(", ")}`);
  if (schema.const !== undefined) parts.push(`always ${code(schema.const)}`);
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    parts.push(`from ${schema.minimum ?? "−∞"} to ${schema.maximum ?? "∞"}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    parts.push(`${schema.minLength ?? 0} to ${schema.maxLength ?? "any number of"} characters`);
  if (schema.pattern) parts.push(`matching ${code(schema.pattern)}`);
  if (schema.default !== undefined) parts.push(`default ${code(schema.default)}`);
  if (schema.properties && schema.type !== "object")
    for (const [name, property] of Object.entries(schema.properties))
      parts.push(`${code(name)}: ${schemaSummary(property)}`);
  return parts.join(", ");
};

const table = (headings: string[], rows: string[][]) =>
  rows.length === 0
    ? ""
    : `<table><thead><tr>${headings.map((heading) => `<th>${heading}</th>`).join("")}</tr></thead><tbody>${rows
        .map((cells) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join("")}</tr>`)
        .join("")}</tbody></table>`;

const contentSummary = (content: Content | undefined) =>
  Object.entries(content ?? {})
    .map(
      ([mediaType, { schema, example }]) =>
        `<p>${code(mediaType)}: ${schemaSummary(schema)}</p>${example === undefined ? "" : `<p>For example:</p><pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre>`}`,
    )
    .join("");

export const renderReferencePage = (document: OpenApiDocument, apiBase: string): string => {
  const resolve = <T extends object>(value: T | Reference): T => {
    if (!isReference(value)) return value;
    let target: unknown = document;
    for (const segment of value.$ref.replace(/^#\//, "").split("/"))
      target = (target as Record<string, unknown>)[segment.replaceAll("~1", "/").replaceAll("~0", "~")];
    if (target === undefined) throw new Error(`The OpenAPI document has no ${value.$ref}.`);
    return target as T;
  };

  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

  const needsKey = (operation: Operation) => (operation.security ?? document.security ?? []).length > 0;

  /** A curl command for the operation, with the request body's example when the document gives one. */
  const example = (path: string, method: string, operation: Operation) => {
    const lines = [`curl -i${method === "GET" ? "" : ` -X ${method}`} ${shellQuote(apiBase + path)}`];
    if (needsKey(operation)) lines.push(`-H "Authorization: Bearer $KEY"`);
    for (const [mediaType, { example }] of Object.entries(operation.requestBody?.content ?? {}))
      if (example !== undefined)
        lines.push(`-H ${shellQuote(`Content-Type: ${mediaType}`)} -d ${shellQuote(JSON.stringify(example))}`);
    return `<pre><code>${escapeHtml(lines.join(" \\\n  "))}</code></pre>`;
  };

  const responseSection = ([status, response]: [string, Response]) => {
    const headers = Object.entries(response.headers ?? {}).map(([name, header]) => {
      const { description, schema } = resolve(header);
      return [code(name), schemaSummary(schema), inline(description ?? "")];
    });
    return `<details${status.startsWith("2") ? " open" : ""}><summary><span class="status status-${escapeHtml(status[0] ?? "")}">${escapeHtml(status)}</span> ${inline(response.description)}</summary>${contentSummary(response.content)}${table(["Header", "Value", "Description"], headers)}</details>`;
  };

  const operationSection = ({ path, method, operation }: (typeof operations)[number]) => {
    const parameters = (operation.parameters ?? [])
      .map(resolve)
      .map((parameter) => [
        `${code(parameter.name)}${parameter.required ? ' <span class="required">required</span>' : ""}`,
        escapeHtml(parameter.in),
        schemaSummary(parameter.schema),
        inline(parameter.description ?? ""),
      ]);
    const { requestBody } = operation;
    return `<section class="operation${operation.deprecated ? " deprecated" : ""}" id="${escapeHtml(operation.operationId)}">
<h3>${methodBadge(method)} <code class="path">${escapeHtml(path)}</code> <span class="summary">${inline(operation.summary ?? "")}</span></h3>
<p class="meta">Operation <code class="operation-id">${escapeHtml(operation.operationId)}</code>${operation.deprecated ? ' · <strong class="badge">deprecated</strong>' : ""} · ${needsKey(operation) ? "needs an API key" : "no API key needed"}</p>
${prose(operation.description)}
${parameters.length ? `<h4>Parameters</h4>${table(["Name", "In", "Value", "Description"], parameters)}` : ""}
${requestBody ? `<h4>Request body${requestBody.required ? ' <span class="required">required</span>' : ""}</h4>${prose(requestBody.description)}${contentSummary(requestBody.content)}` : ""}
<h4>Responses</h4>
${Object.entries(operation.responses)
  .map(([status, response]) => responseSection([status, resolve(response)]))
  .join("\n")}
<h4>Example</h4>
${example(path, method, operation)}
</section>`;
  };

  const tagSections = (document.tags ?? []).map(({ name, description }) => {
    const tagged = operations.filter(({ operation }) => operation.tags?.includes(name));
    return `<section class="tag" id="tag-${escapeHtml(name)}"><h2>${escapeHtml(name)}</h2>${prose(description)}${tagged.map(operationSection).join("\n")}</section>`;
  });

  const schemaSections = Object.entries(document.components.schemas ?? {}).map(([name, schema]) => {
    const required = new Set(schema.required);
    const properties = Object.entries(schema.properties ?? {}).map(([property, value]) => [
      `${code(property)}${required.has(property) ? ' <span class="required">required</span>' : ""}`,
      schemaSummary(value),
      inline(value.description ?? ""),
    ]);
    const summary = schema.properties
      ? schema.additionalProperties === false
        ? "object; no other fields"
        : "object"
      : schemaSummary(schema);
    return `<section class="schema" id="${schemaAnchor(name)}"><h3>${escapeHtml(name)}</h3>${prose(schema.description)}<p>${summary}</p>${table(["Field", "Value", "Description"], properties)}</section>`;
  });

  const servers = (document.servers ?? []).map((server) => [
    code(server.url),
    inline(server.description ?? ""),
    Object.entries(server.variables ?? {})
      .map(([name, variable]) => `${code(`{${name}}`)}: ${inline(variable.description ?? "")}`)
      .join("<br>"),
  ]);
  const security = Object.entries(document.components.securitySchemes ?? {}).map(([name, scheme]) => [
    code(name),
    escapeHtml([scheme.type, scheme.scheme].filter(Boolean).join(" ")),
    inline(scheme.description ?? ""),
  ]);

  const contents = operations
    .map(
      ({ method, path, operation }) =>
        `<li><a href="#${escapeHtml(operation.operationId)}">${methodBadge(method)} ${escapeHtml(path)}</a>${operation.deprecated ? " (deprecated)" : ""}</li>`,
    )
    .join("");

  const { info } = document;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} ${escapeHtml(info.version)}: reference</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(info.title)} <span class="version">${escapeHtml(info.version)}</span></h1>
${prose(info.description)}
<p>The OpenAPI document this page shows, to generate clients from: <a href="${escapeHtml(apiBase)}/openapi.json">${escapeHtml(apiBase)}/openapi.json</a>.</p>
<nav aria-label="Operations"><ul>${contents}</ul></nav>
</header>
<main>
<section id="servers"><h2>Servers</h2>${table(["URL", "Description", "Variables"], servers)}</section>
<section id="authentication"><h2>Authentication</h2>${table(["Scheme", "Type", "Description"], security)}</section>
${tagSections.join("\n")}
<section id="schemas"><h2>Schemas</h2>${schemaSections.join("\n")}</section>
</main>
</body>
</html>
`;
};

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa;--get:#0969da;--post:#1a7f37;--warn:#9a6700;--bad:#cf222e}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--soft:#151b23;--get:#4493f8;--post:#3fb950;--warn:#d29922;--bad:#f85149}}
body{margin:0 auto;max-width:64rem;padding:1rem 1.25rem 4rem;font:16px/1.5 system-ui,sans-serif;color:var(--fg)}
h1{margin-bottom:.25rem}h2{margin-top:2.5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline;margin:2rem 0 .25rem}h4{margin:1.25rem 0 .5rem}
code,pre{font:.875em/1.45 ui-monospace,monospace}code{background:var(--soft);border-radius:4px;padding:.1em .3em}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.75rem;overflow-x:auto}pre code{padding:0}
a{color:var(--get)}.version,.meta{color:var(--muted);font-size:.9rem}.meta{margin-top:0}
.method{display:inline-block;min-width:3.2rem;text-align:center;border-radius:4px;padding:0 .4rem;color:#fff;font:600 .8rem/1.6 ui-monospace,monospace}
.method-get{background:var(--get)}.method-post{background:var(--post)}.method-put,.method-patch{background:var(--warn)}.method-delete{background:var(--bad)}
.operation{border-top:1px solid var(--line)}.deprecated .path{text-decoration:line-through}.badge{color:var(--warn)}
.required{color:var(--bad);font-size:.75rem;font-weight:600}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.9rem;display:block;overflow-x:auto}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:var(--soft)}td:first-child code{white-space:nowrap}
details{border:1px solid var(--line);border-radius:6px;margin:.4rem 0;padding:.25rem .75rem}summary{cursor:pointer}
.status{font:600 .9rem ui-monospace,monospace}.status-2,.status-3{color:var(--post)}.status-4{color:var(--warn)}.status-5{color:var(--bad)}
nav ul{list-style:none;padding:0;columns:2 18rem}nav li{margin:.2rem 0}nav a{text-decoration:none}
`;
