import { describe, expect, it } from "vitest";
import openapi from "../../../openapi.json";
import { renderReferencePage } from "../../../src/document/reference-page";
import { type Examples, type OpenApi, operationsOf, readerOf } from "../../../src/document/reference-page/document";
import { curlLines, escapeHtml, shellWords } from "../../helpers/curl-lines";
import { BASE_URL } from "../../helpers/index";

const API_BASE = `${BASE_URL}/v1`;

describe("renderReferencePage, with examples of every kind OpenAPI 3.1 allows", () => {
  // Today's document with what a richer one may hold: examples on parameters (one of them
  // a cursor, which no server would accept), in maps with summaries and $refs, on
  // headers and schemas, a string example of HTML, an externalValue, and text to escape.
  const rich = structuredClone(openapi) as unknown as OpenApi.Document & {
    components: { examples: Record<string, OpenApi.ExampleObject>; headers: Record<string, Examples> };
  };
  const own = readerOf(rich).resolve;
  /** Replaces whatever examples the holder has (the document may already give some). */
  const give = (holder: Examples | undefined, examples: Examples) => {
    if (!holder) throw new Error("openapi.json lacks a part the test gives examples to");
    delete holder.example;
    delete holder.examples;
    Object.assign(holder, examples);
  };
  const operation = (path: string, method: string) => {
    const found = operationsOf(rich).find((entry) => entry.path === path && entry.method === method.toUpperCase());
    if (!found) throw new Error(`openapi.json lacks ${method} ${path}`);
    return found.operation;
  };
  const body = (path: string, method: string, status: string | undefined, mediaType = "application/json") => {
    const { requestBody, responses } = operation(path, method);
    const { content } = status
      ? own(responses?.[status] ?? { $ref: "#/missing" })
      : own(requestBody ?? { $ref: "#/missing" });
    return content?.[mediaType];
  };
  const parameter = (path: string, method: string, name: string) =>
    (operation(path, method).parameters ?? [])
      .map((parameter) => own(parameter))
      .find((parameter) => parameter.name === name);

  give(parameter("/pets", "get", "limit"), { example: 2 });
  give(parameter("/pets", "get", "status"), { examples: { sold: { summary: "Sold pets", value: "sold" } } });
  give(parameter("/pets", "get", "cursor"), { example: "not-a-real-cursor" });
  give(parameter("/pets/{petId}", "get", "petId"), { example: 3 });
  rich.components.examples = {
    ...rich.components.examples,
    Irish: { summary: "A name with a quote", value: { name: "O'Brien </pre><script>", categoryId: 1 } },
  };
  give(body("/pets", "post", undefined), { examples: { irish: { $ref: "#/components/examples/Irish" } } });
  // A shared response names its examples by operation: listPets shows its own.
  give(body("/pets", "get", "400"), {
    examples: {
      listPets: {
        summary: "`limit` too big",
        value: { code: "invalid_request", message: "limit: <= 100", status: 400 },
      },
    },
  });
  give(body("/pets", "get", "200"), {
    examples: {
      rex: { value: [{ id: 1, name: "Rex & co", categoryId: 1, status: "available" }] },
      elsewhere: { externalValue: "https://example.com/pets.json" },
    },
  });
  give(body("/docs", "get", "200", "text/html"), { example: "<!doctype html><title>Reference</title>" });
  give(rich.components.headers.RequestId, { example: "0123-request" });
  give(rich.components.schemas?.PetStatus, { examples: ["pending"] });
  give(rich.components.schemas?.Pet, { examples: [{ id: 7, name: "Seven" }] });

  const html = renderReferencePage(rich, API_BASE);
  const lines = curlLines(html);

  it("puts the portable examples in the curl lines and leaves the cursor out", () => {
    expect(lines.get("listPets")).toBe(
      `curl -i '${API_BASE}/pets?limit=2&status=sold' \\\n  -H "Authorization: Bearer $KEY"`,
    );
    expect(lines.get("getPet")).toBe(`curl -i '${API_BASE}/pets/3' \\\n  -H "Authorization: Bearer $KEY"`);
  });

  it("quotes the request body's example for the shell, from a $ref in examples", () => {
    const words = shellWords(lines.get("createPet") ?? "", { KEY: "k" });
    expect(words.at(-1)).toBe(JSON.stringify({ name: "O'Brien </pre><script>", categoryId: 1 }));
    expect(words).toEqual(expect.arrayContaining(["-X", "POST", "Authorization: Bearer k"]));
  });

  it("shows each example once, escaped, with its summary", () => {
    expect(html).not.toContain("<script>");
    expect(html).toContain("For example, A name with a quote:");
    expect(html).toContain(escapeHtml(JSON.stringify({ name: "O'Brien </pre><script>", categoryId: 1 }, null, 2)));
    expect(html).toContain("For example, <code>limit</code> too big:");
    expect(html).toContain(
      escapeHtml(JSON.stringify({ code: "invalid_request", message: "limit: <= 100", status: 400 }, null, 2)),
    );
    expect(html).toContain("Rex &amp; co");
    expect(html).toContain("<code>https://example.com/pets.json</code>");
    expect(html).not.toContain('href="https://example.com');
    // HTML is shown as HTML source, not as a JSON string.
    expect(html).toContain(
      '<pre class="example"><code>&lt;!doctype html&gt;&lt;title&gt;Reference&lt;/title&gt;</code>',
    );
    expect(html).toContain("for example <code>2</code>");
    expect(html).toContain("for example <code>sold</code> (Sold pets)");
    expect(html).toContain("for example <code>0123-request</code>");
    expect(html).toContain("for example <code>pending</code>");
    expect(html).toContain(escapeHtml(JSON.stringify({ id: 7, name: "Seven" }, null, 2)));
  });
});
