import { describe, expect, it } from "vitest";
import openapi from "../../../openapi.json";
import { renderReferencePage } from "../../../src/document/reference-page";
import { type Examples, type OpenApi, operationsOf, readerOf } from "../../../src/document/reference-page/document";
import { curlLines, curlRequest, escapeHtml, shellWords } from "../../helpers/curl-lines";
import { BASE_URL, call, countPets, createApiKey, createPet, send } from "../../helpers/index";
import { OPEN_SEGMENT, petsInClosedSegmentZero } from "../../helpers/segments";

// The reference page's curl lines, examples and navigation (with examples of every kind,
// test/worker/document/reference-page-examples.test.ts). The page in a browser, and
// its curl lines run by bash against the Worker in wrangler's test harness, are in test/e2e/local/docs-page.test.ts.

const document = openapi as unknown as OpenApi.Document;
const { resolve } = readerOf(document);
const API_BASE = `${BASE_URL}/v1`;

const page = async () => {
  const response = await call("/v1/docs", { key: null });
  expect(response.status).toBe(200);
  return response.text();
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
      // With three segments, such ids are segment 0's, closed: a deployment's pets from before it opened segment 1.
      if (OPEN_SEGMENT === 0)
        while ((await countPets()) < petId) await createPet(key, { name: "Filler", categoryId: 1 });
      else await petsInClosedSegmentZero(petId);
      const response = await send(request);
      expect(response.status, `${operationId}: ${await response.clone().text()}`).toBe(successStatus(responses ?? {}));
      await response.arrayBuffer();
    }
  });
});

describe("each operation's section of GET /v1/docs", () => {
  it("shows its curl line before its parameters, its body and its responses", async () => {
    const html = await page();
    for (const { operationId } of operations) {
      const section = html.slice(html.indexOf(`id="${operationId}"`)).split("</section>")[0] ?? "";
      const curl = section.indexOf('<pre class="curl">');
      expect(curl, operationId).toBeGreaterThan(0);
      for (const heading of ["<h4>Parameters", "<h4>Request body", "<h4>Responses"]) {
        const at = section.indexOf(heading);
        if (at !== -1) expect(curl, `${operationId}: ${heading}`).toBeLessThan(at);
      }
      expect(section.indexOf("<h4>Responses"), operationId).toBeGreaterThan(0);
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
      // A shared response names its examples by operation: each operation shows its own.
      const ownExamples = (media: OpenApi.MediaTypeObject) => {
        const own = media.examples?.[operation.operationId ?? ""];
        return { ...media, example: undefined, examples: own ? { own } : {} };
      };
      const bodies = [
        ...Object.entries((operation.requestBody && resolve(operation.requestBody))?.content ?? {}),
        ...Object.values(operation.responses ?? {}).flatMap((response) =>
          Object.entries(resolve(response).content ?? {}).map(
            ([mediaType, media]) => [mediaType, "$ref" in response ? ownExamples(media) : media] as const,
          ),
        ),
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
