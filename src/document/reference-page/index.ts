// The API reference page (GET /v1/docs), rendered from the OpenAPI document as plain
// HTML: no script, no file to fetch, so the page is one small response and the Worker
// needs no static assets, whose router wrangler dev and Cloudflare would otherwise put
// in front of every API request. It renders the parts of OpenAPI 3.1 that
// scripts/openapi.ts writes, and every `example` or `examples` it finds.
import { curlCommand } from "./curl";
import { type Examples, type OpenApi, operationsOf, readerOf } from "./document";
import {
  code,
  escapeHtml,
  exampleBlocks,
  inline,
  methodBadge,
  prose,
  schemaAnchor,
  schemaSummary,
  selfLink,
  table,
} from "./html";
import { STYLE } from "./style";

export const renderReferencePage = (document: OpenApi.Document, apiBase: string): string => {
  const reader = readerOf(document);
  const { resolve, examplesOf } = reader;

  /** A parameter's or header's examples, for the Value column of its table. */
  const examplesCell = (holder: Examples) => {
    const shown = examplesOf(holder).filter(({ value }) => value !== undefined);
    return shown.length
      ? `; for example ${shown.map(({ summary, value }) => `${code(value)}${summary ? ` (${inline(summary)})` : ""}`).join(", ")}`
      : "";
  };

  const operations = operationsOf(document);

  const needsKey = (operation: OpenApi.OperationObject) => (operation.security ?? document.security ?? []).length > 0;

  /** A shared response names its examples by the operations they come from: an operation shows its own only. */
  const examplesFor = (media: OpenApi.MediaTypeObject, sharedBy?: string) => {
    if (sharedBy === undefined) return examplesOf(media);
    const own = media.examples?.[sharedBy];
    return own ? [resolve(own)] : [];
  };

  const contentSection = (content: OpenApi.ResponseObject["content"], sharedBy?: string) =>
    Object.entries(content ?? {})
      .map(
        ([mediaType, media]) =>
          `<p>${code(mediaType)}: ${schemaSummary(media.schema)}</p>${exampleBlocks(examplesFor(media, sharedBy), mediaType)}`,
      )
      .join("");

  const responseSection = ([status, response]: [string, OpenApi.ResponseObject], sharedBy?: string) => {
    const headers = Object.entries(response.headers ?? {}).map(([name, header]) => {
      const resolved = resolve(header);
      return [code(name), schemaSummary(resolved.schema) + examplesCell(resolved), inline(resolved.description ?? "")];
    });
    return `<details${status.startsWith("2") ? " open" : ""}><summary><span class="status status-${escapeHtml(status[0] ?? "")}">${escapeHtml(status)}</span> ${inline(response.description)}</summary>${contentSection(response.content, sharedBy)}${table(["Header", "Value", "Description"], headers)}</details>`;
  };

  // Each operation's curl line right under its description, before the parameters and every response: what a reader tries first.
  const operationSection = ({ path, method, operation }: (typeof operations)[number]) => {
    const parameters = (operation.parameters ?? [])
      .map((parameter) => resolve(parameter))
      .map((parameter) => [
        `${code(parameter.name)}${parameter.required ? ' <span class="required">required</span>' : ""}`,
        escapeHtml(parameter.in),
        schemaSummary(parameter.schema) + examplesCell(parameter),
        inline(parameter.description ?? ""),
      ]);
    const requestBody = operation.requestBody && resolve(operation.requestBody);
    const id = escapeHtml(operation.operationId ?? "");
    return `<section class="operation${operation.deprecated ? " deprecated" : ""}" id="${id}">
<h3>${selfLink(id, `${methodBadge(method)} <code class="path">${escapeHtml(path)}</code>`)} <span class="summary">${inline(operation.summary ?? "")}</span></h3>
<p class="meta">Operation <code class="operation-id">${id}</code>${operation.deprecated ? ' · <strong class="badge">deprecated</strong>' : ""} · ${needsKey(operation) ? "needs an API key" : "no API key needed"}</p>
${prose(operation.description)}
<h4>Example</h4>
<pre class="curl"><code>${escapeHtml(curlCommand(reader, { url: apiBase + path, method, operation, needsKey: needsKey(operation) }))}</code></pre>
${parameters.length ? `<h4>Parameters</h4>${table(["Name", "In", "Value", "Description"], parameters)}` : ""}
${requestBody ? `<h4>Request body${requestBody.required ? ' <span class="required">required</span>' : ""}</h4>${prose(requestBody.description)}${contentSection(requestBody.content)}` : ""}
<h4>Responses</h4>
${Object.entries(operation.responses ?? {})
  .map(([status, response]) =>
    responseSection([status, resolve(response)], "$ref" in response ? (operation.operationId ?? "") : undefined),
  )
  .join("\n")}
</section>`;
  };

  const tags = (document.tags ?? []).map(({ name, description }) => ({
    id: `tag-${escapeHtml(name)}`,
    name,
    description,
    tagged: operations.filter(({ operation }) => operation.tags?.includes(name)),
  }));
  const tagSections = tags.map(
    ({ id, name, description, tagged }) =>
      `<section class="tag" id="${id}"><h2>${selfLink(id, escapeHtml(name))}</h2>${prose(description)}${tagged.map(operationSection).join("\n")}</section>`,
  );

  const schemas = Object.entries(document.components?.schemas ?? {});
  const schemaSections = schemas.map(([name, schema]) => {
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
    // An object's examples are too big for its one-line summary (which shows the others).
    const examples = schema.properties ? exampleBlocks(examplesOf(schema)) : "";
    return `<section class="schema" id="${schemaAnchor(name)}"><h3>${selfLink(schemaAnchor(name), escapeHtml(name))}</h3>${prose(schema.description)}<p>${summary}</p>${examples}${table(["Field", "Value", "Description"], properties)}</section>`;
  });

  // The address that serves this page first, as its curl lines use it; the document's
  // servers after it, but the one that is the same address.
  const servers = [
    [code(apiBase), "This server: the one that serves this page", ""],
    ...(document.servers ?? [])
      .filter((server) => server.url !== apiBase)
      .map((server) => [
        code(server.url),
        inline(server.description ?? ""),
        Object.entries(server.variables ?? {})
          .map(([name, variable]) => `${code(`{${name}}`)}: ${inline(variable.description ?? "")}`)
          .join("<br>"),
      ]),
  ];
  const security = Object.entries(document.components?.securitySchemes ?? {}).map(([name, entry]) => {
    const scheme = resolve(entry);
    return [
      code(name),
      escapeHtml([scheme.type, "scheme" in scheme && scheme.scheme].filter(Boolean).join(" ")),
      inline(scheme.description ?? ""),
    ];
  });

  const item = (id: string, html: string, after = "") => `<li><a href="#${id}">${html}</a>${after}</li>`;
  const list = (items: string[]) => `<ul>${items.join("")}</ul>`;
  const contents = list([
    item("servers", "Servers"),
    item("authentication", "Authentication"),
    ...tags.map(({ id, name, tagged }) =>
      item(
        id,
        escapeHtml(name),
        list(
          tagged.map(({ method, path, operation }) =>
            item(
              escapeHtml(operation.operationId ?? ""),
              `${methodBadge(method)} ${escapeHtml(path)}`,
              operation.deprecated ? " (deprecated)" : "",
            ),
          ),
        ),
      ),
    ),
    item("schemas", "Schemas", list(schemas.map(([name]) => item(schemaAnchor(name), escapeHtml(name))))),
  ]);

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
</header>
<nav class="contents" aria-label="Contents">${contents}</nav>
<main>
<section id="servers"><h2>${selfLink("servers", "Servers")}</h2>${table(["URL", "Description", "Variables"], servers)}</section>
<section id="authentication"><h2>${selfLink("authentication", "Authentication")}</h2>${table(["Scheme", "Type", "Description"], security)}<p>The <code>curl</code> lines below read the key from the shell variable <code>KEY</code>: set it first, with <code>KEY=&lt;your API key&gt;</code>.</p></section>
${tagSections.join("\n")}
<section id="schemas"><h2>${selfLink("schemas", "Schemas")}</h2>${schemaSections.join("\n")}</section>
</main>
</body>
</html>
`;
};
