import { describe, expect, it } from "vitest";
import openapi from "../openapi.json";
import { renderReferencePage } from "../src/reference-page";
import { type Examples, type OpenApi, operationsOf, readerOf } from "../src/reference-page/document";
import { BASE_URL, call, countPets, createApiKey, createPet, send } from "./helpers";

// The reference page's curl lines, examples and navigation. The page in a browser, and
// its curl lines run by bash against the Worker in wrangler's test harness, are in test/e2e/local/docs-page.test.ts.

const document = openapi as unknown as OpenApi.Document;
const { resolve } = readerOf(document);
const API_BASE = `${BASE_URL}/v1`;

const page = async () => {
  const response = await call("/v1/docs", { key: null });
  expect(response.status).toBe(200);
  return response.text();
};

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const unescapeHtml = (html: string) => html.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? "");
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => Object.entries(ENTITIES).find(([, c]) => c === character)?.[0] ?? "");

/** Each operation's curl line as the page shows it (its text, as a browser would copy it). */
const curlLines = (html: string) =>
  new Map(
    [
      ...html.matchAll(/<section class="operation[^"]*" id="([^"]+)">[\s\S]*?<pre class="curl"><code>([^<]*)<\/code>/g),
    ].map(([, id, line]) => [id ?? "", unescapeHtml(line ?? "")]),
  );

/**
 * The words a POSIX shell makes of a curl line, for the quoting the page may use:
 * '...', "..." expanding $NAME, and a backslash outside quotes. Anything else the
 * shell would interpret fails the test.
 */
const shellWords = (line: string, variables: Record<string, string>): string[] => {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const character = line[i] ?? "";
    if (character === "\\") {
      // A backslash-newline joins lines; any other character after a backslash is itself.
      i++;
      if (line[i] !== "\n") word = (word ?? "") + (line[i] ?? "");
    } else if (character === " " || character === "\n") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (character === "'" || character === '"') {
      const end = line.indexOf(character, i + 1);
      if (end < 0) throw new Error(`An unclosed ${character} in: ${line}`);
      const quoted = line.slice(i + 1, end);
      if (character === '"' && /[\\`]|\$(?!\w)/.test(quoted)) throw new Error(`Unexpected in "...": ${quoted}`);
      word =
        (word ?? "") + (character === "'" ? quoted : quoted.replace(/\$(\w+)/g, (_, name) => variables[name] ?? ""));
      i = end;
    } else if (/[\\$`*?[\]{}~#&|;<>()!]/.test(character))
      throw new Error(`The shell would interpret ${character} in: ${line}`);
    else word = (word ?? "") + character;
  }
  if (word !== undefined) words.push(word);
  return words;
};

/** The request that curl would send for these words (the options the page uses, and no others). */
const curlRequest = (words: string[]) => {
  expect(words[0]).toBe("curl");
  let method = "GET";
  let url = "";
  let body: string | undefined;
  const headers = new Headers();
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? "";
    if (word === "-i") continue;
    if (word === "-X") method = words[++i] ?? "";
    else if (word === "-H") {
      const [name = "", ...value] = (words[++i] ?? "").split(":");
      headers.set(name, value.join(":").trim());
    } else if (word === "-d") {
      body = words[++i];
      if (method === "GET") method = "POST";
    } else if (word.startsWith("-")) throw new Error(`An option the test does not know: ${word}`);
    else url = word;
  }
  return new Request(url, { method, headers, body });
};

const operations = operationsOf(document).map(({ operation }) => operation);
const successStatus = (responses: Record<string, unknown>) => Number(Object.keys(responses).find((s) => /^2/.test(s)));

describe("the curl lines of GET /v1/docs", () => {
  it("give one line per operation, with every path parameter filled in", async () => {
    const lines = curlLines(await page());
    expect([...lines.keys()].sort()).toEqual(operations.map(({ operationId }) => operationId).sort());
    for (const { operationId, security } of operations) {
      const line = lines.get(String(operationId)) ?? "";
      expect(line, operationId).toMatch(new RegExp(`^curl -i (-X [A-Z]+ )?'${API_BASE}/`));
      const { url } = curlRequest(shellWords(line, { KEY: "k" }));
      expect(decodeURIComponent(url), operationId).not.toMatch(/[{}]/);
      const needsKey = (security ?? document.security ?? []).length > 0;
      expect(line.includes('-H "Authorization: Bearer $KEY"'), operationId).toBe(needsKey);
    }
  });

  it("each answer with its operation's success status when run as a shell would run them", async () => {
    const key = await createApiKey();
    const lines = curlLines(await page());
    for (const { operationId, responses } of operations) {
      const request = curlRequest(shellWords(lines.get(String(operationId)) ?? "", { KEY: key }));
      // A path's example id names a pet that the lines before it may not have created.
      const petId = Number(new URL(request.url).pathname.match(/^\/v1\/pets\/(\d+)$/)?.[1] ?? 0);
      expect(petId).toBeLessThanOrEqual(100);
      while ((await countPets()) < petId) await createPet(key, { name: "Filler", categoryId: 1 });
      const response = await send(request);
      expect(response.status, `${operationId}: ${await response.clone().text()}`).toBe(successStatus(responses ?? {}));
      await response.arrayBuffer();
    }
  });
});

describe("the examples of GET /v1/docs", () => {
  /** A media type's or parameter's examples, as OpenAPI 3.1 writes them. */
  const examplesIn = (holder: Examples): unknown[] => [
    ...(holder.example === undefined ? [] : [holder.example]),
    ...Object.values((holder.examples ?? {}) as Record<string, OpenApi.ExampleObject>).map(
      (entry) => resolve(entry).value,
    ),
  ];

  it("shows every example the document gives, escaped", async () => {
    const html = await page();
    let shown = 0;
    for (const operation of operations) {
      const section = html.slice(html.indexOf(`id="${operation.operationId}"`)).split("</section>")[0] ?? "";
      const bodies = [
        ...Object.entries((operation.requestBody && resolve(operation.requestBody))?.content ?? {}),
        ...Object.values(operation.responses ?? {})
          .map((response) => resolve(response))
          .flatMap(({ content }) => Object.entries(content ?? {})),
      ];
      for (const [mediaType, media] of bodies)
        for (const value of examplesIn(media).filter((value) => value !== undefined)) {
          // JSON as JSON; a string of another media type (HTML, say) as itself.
          const asText = typeof value === "string" && !mediaType.includes("json");
          const text = asText ? value : JSON.stringify(value, null, 2);
          expect(section, operation.operationId).toContain(`<pre class="example"><code>${escapeHtml(text)}</code>`);
          shown++;
        }
      for (const parameter of (operation.parameters ?? []).map((parameter) => resolve(parameter)))
        for (const value of examplesIn(parameter))
          expect(section).toContain(`<code>${escapeHtml(typeof value === "string" ? value : JSON.stringify(value))}`);
    }
    expect(shown).toBeGreaterThan(0);
  });
});

describe("the servers of GET /v1/docs", () => {
  const serversTable = (html: string) => html.match(/<section id="servers">([\s\S]*?)<\/section>/)?.[1] ?? "";

  it("name first the address that serves the page, on whatever port, then the document's others", () => {
    const table = serversTable(renderReferencePage(document, "http://127.0.0.1:8911/v1"));
    const urls = [...table.matchAll(/<tr><td><code>([^<]+)<\/code>/g)].map(([, url]) => url);
    expect(urls).toEqual(["http://127.0.0.1:8911/v1", ...(document.servers ?? []).map(({ url }) => url)]);
  });

  it("list the document's server that serves the page once", () => {
    const local = (document.servers ?? []).find(({ url }) => url.startsWith("http://localhost"))?.url as string;
    const table = serversTable(renderReferencePage(document, local));
    expect(table.split(`<code>${local}</code>`)).toHaveLength(2);
  });
});

describe("the navigation of GET /v1/docs", () => {
  it("lists every operation and schema in one contents, linked to their sections", async () => {
    const html = await page();
    const nav = html.match(/<nav class="contents" aria-label="Contents">([\s\S]*?)<\/nav>/)?.[1] ?? "";
    expect(html.match(/<nav/g)).toHaveLength(1);
    for (const { operationId } of operations) expect(nav).toContain(`href="#${operationId}"`);
    for (const name of Object.keys(document.components?.schemas ?? {})) expect(nav).toContain(`href="#schema-${name}"`);
    for (const id of [
      "servers",
      "authentication",
      "schemas",
      ...(document.tags ?? []).map(({ name }) => `tag-${name}`),
    ])
      expect(nav).toContain(`href="#${id}"`);
  });

  it("has no link to a missing anchor, no id twice, and a heading that links to itself in each section", async () => {
    const html = await page();
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [, target] of html.matchAll(/href="#([^"]*)"/g)) expect(ids).toContain(target);
    for (const [, id, heading] of html.matchAll(/<section [^>]*id="([^"]+)"><(h[23])>/g)) {
      const start = html.indexOf(`id="${id}"><${heading}>`);
      const headingHtml = html.slice(start, html.indexOf(`</${heading}>`, start));
      expect(headingHtml, id).toContain(`<a class="anchor" href="#${id}">`);
    }
  });
});

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
  give(body("/pets", "get", "400"), {
    examples: {
      limit: { summary: "`limit` too big", value: { code: "invalid_request", message: "limit: <= 100", status: 400 } },
      elsewhere: { externalValue: "https://example.com/error.json" },
    },
  });
  give(body("/pets", "get", "200"), { example: [{ id: 1, name: "Rex & co", categoryId: 1, status: "available" }] });
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
    expect(html).toContain("<code>https://example.com/error.json</code>");
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
