// The HTML pieces of the reference page: escaping, the Markdown the document's
// descriptions use, tables, example blocks, and a schema's one-line summary.
import { type OpenApi, referenceName } from "./document";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
export const code = (value: unknown) =>
  `<code>${escapeHtml(typeof value === "string" ? value : JSON.stringify(value))}</code>`;
/** The Markdown the document's descriptions use: paragraphs and `code`. */
export const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
export const prose = (text: string | undefined) =>
  (text ?? "")
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== "")
    .map((paragraph) => `<p>${inline(paragraph)}</p>`)
    .join("");

export const schemaAnchor = (name: string) => `schema-${escapeHtml(name)}`;
export const methodBadge = (method: string) =>
  `<span class="method method-${escapeHtml(method.toLowerCase())}">${escapeHtml(method)}</span>`;
/** A heading's text that links to the heading itself, so that any section's address is one click away. */
export const selfLink = (id: string, html: string) => `<a class="anchor" href="#${id}">${html}</a>`;

/**
 * A schema as it may stand anywhere in the document. openapi-types gives parameters and
 * headers OpenAPI 3.0's Schema Object, which lacks `const`; the document is 3.1 throughout.
 */
type AnySchema = OpenApi.SchemaObject | OpenApi.ReferenceObject | object;

/** One line for a schema: its type (schemas by name link to their section) and its constraints. */
export const schemaSummary = (anySchema: AnySchema | undefined): string => {
  if (!anySchema) return "";
  // In OpenAPI 3.1 a $ref may have siblings (a default, say): both are shown.
  const schema = anySchema as OpenApi.SchemaObject & Partial<OpenApi.ReferenceObject>;
  const parts: string[] = [];
  if (schema.$ref) {
    const name = referenceName(schema.$ref);
    parts.push(`<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`);
  }
  parts.push(...(schema.allOf ?? []).map(schemaSummary));
  if (schema.type) {
    const types = [schema.type].flat().join(" or ");
    const items = "items" in schema && schema.items ? ` of ${schemaSummary(schema.items)}` : "";
    parts.push(`${escapeHtml(types)}${schema.format ? ` (${escapeHtml(schema.format)})` : ""}${items}`);
  }
  if (schema.enum) parts.push(`one of ${schema.enum.map(code).join(", ")}`);
  if (schema.const !== undefined) parts.push(`always ${code(schema.const)}`);
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    parts.push(`from ${schema.minimum ?? "−∞"} to ${schema.maximum ?? "∞"}`);
  if (schema.maxLength !== undefined) parts.push(`${schema.minLength ?? 0} to ${schema.maxLength} characters`);
  else if (schema.minLength !== undefined)
    parts.push(`at least ${schema.minLength} character${schema.minLength === 1 ? "" : "s"}`);
  if (schema.pattern) parts.push(`matching ${code(schema.pattern)}`);
  if (schema.default !== undefined) parts.push(`default ${code(schema.default)}`);
  if (schema.properties && schema.type !== "object")
    for (const [name, property] of Object.entries(schema.properties))
      parts.push(`${code(name)}: ${schemaSummary(property)}`);
  const examples = [schema.example, ...(Array.isArray(schema.examples) ? schema.examples : [])];
  const shown = examples.filter((example) => example !== undefined);
  if (shown.length && !schema.properties) parts.push(`for example ${shown.map(code).join(", ")}`);
  return parts.join(", ");
};

export const table = (headings: string[], rows: string[][]) =>
  rows.length === 0
    ? ""
    : `<table><thead><tr>${headings.map((heading) => `<th>${heading}</th>`).join("")}</tr></thead><tbody>${rows
        .map((cells) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join("")}</tr>`)
        .join("")}</tbody></table>`;

/** A JSON example as JSON; a string example of another media type (HTML, text) as the text itself. */
const exampleText = (value: unknown, mediaType: string) =>
  typeof value === "string" && !/json/i.test(mediaType) ? value : JSON.stringify(value, null, 2);

export const exampleBlocks = (examples: OpenApi.ExampleObject[], mediaType = "application/json") =>
  examples
    .map(
      ({ summary, description, value, externalValue }) =>
        `<p>For example${summary ? `, ${inline(summary)}` : ""}:</p>${prose(description)}${value === undefined ? "" : `<pre class="example"><code>${escapeHtml(exampleText(value, mediaType))}</code></pre>`}${externalValue ? `<p>The example is at ${code(externalValue)}.</p>` : ""}`,
    )
    .join("");
