import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectChromium, watchApiAnswers } from "../helpers/chromium";
import { api, apiKey, createPet, baseUrl as origin } from "../helpers/client";

// The reference page in a real browser: the Worker in wrangler's test harness of the
// e2e run (test/e2e/helpers/global-setup.ts: a real port, the migrations applied, so that the
// curl lines have something to talk to), and Debian's Chromium renders the page.

let browser: Browser | undefined;

beforeAll(async () => {
  browser = await connectChromium();
});

afterAll(async () => {
  await browser?.close();
});

const WIDE = { width: 1280, height: 720 };
const NARROW = { width: 390, height: 700 };

/** Opens the page, and records every request it makes and every complaint it logs. */
const openPage = async (viewport = WIDE) => {
  const context = await (browser as Browser).newContext({ viewport });
  const requested: string[] = [];
  const complaints: string[] = [];
  context.on("request", (request) => requested.push(request.url()));
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") complaints.push(message.text());
  });
  page.on("pageerror", (error) => complaints.push(error.message));
  const answers = await watchApiAnswers(page, origin);
  const response = await page.goto(`${origin}/v1/docs`);
  expect(response?.status()).toBe(200);
  /** The page made one request, its own, whose answer the document describes, and logged nothing. */
  const close = async () => {
    expect(requested).toEqual([`${origin}/v1/docs`]);
    expect(await answers.problems()).toEqual({ answers: 1, problems: [] });
    expect(complaints).toEqual([]);
    await context.close();
  };
  return { page, close };
};

/** Whether the element's box lies within the viewport. */
const inViewport = async (page: Page, selector: string) => {
  const box = await page.locator(selector).boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  return box.y >= 0 && box.y < viewport.height && box.x >= 0 && box.x < viewport.width && box.height > 0;
};

describe("GET /v1/docs in Chromium", () => {
  it("renders the three operations from this host alone", async () => {
    const { page, close } = await openPage();
    await expect(page.title()).resolves.toContain("Petstore edge API");

    const operations = page.locator("section.operation");
    await expect(operations.locator(".operation-id").allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(["listPets", "createPet", "getPet"]),
    );
    for (const [operationId, heading] of [
      ["listPets", "GET /pets List pets"],
      ["createPet", "POST /pets Add a pet"],
      ["getPet", "GET /pets/{petId} Get a pet (deprecated)"],
    ] as const) {
      const operation = page.locator(`section.operation#${operationId}`);
      await expect(operation.isVisible()).resolves.toBe(true);
      expect((await operation.locator("h3").textContent())?.replace(/\s+/g, " ").trim()).toBe(heading);
      // The success response is open; the errors are folded but one click away.
      await expect(operation.locator("details[open] summary").first().innerText()).resolves.toMatch(/^20[01] /);
    }
    const deprecated = page.locator("section.operation.deprecated .operation-id");
    expect(await deprecated.allInnerTexts()).toEqual(["getPet"]);

    // Links within the page: the contents to an operation, an operation to its schema.
    await page.getByRole("navigation").getByRole("link", { name: "POST /pets" }).click();
    expect(new URL(page.url()).hash).toBe("#createPet");
    await page.locator("section.operation#getPet").getByRole("link", { name: "Pet", exact: true }).first().click();
    expect(new URL(page.url()).hash).toBe("#schema-Pet");
    await expect(page.locator("#schema-Pet").isVisible()).resolves.toBe(true);
    await close();
  });

  it.each([
    ["a sidebar on a wide screen", WIDE],
    ["a bar on a narrow one", NARROW],
  ])(
    "keeps the contents in reach at the bottom of the page: %s",
    async (_, viewport) => {
      const { page, close } = await openPage(viewport);
      // Strings, not functions: this project's Node code is typed without the DOM.
      await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)");
      expect(await page.evaluate<number>("window.scrollY")).toBeGreaterThan(viewport.height);
      expect(await inViewport(page, "nav.contents")).toBe(true);

      // From the bottom, the contents lead to an operation, whose heading is not hidden under them.
      await page.getByRole("navigation").getByRole("link", { name: "GET /pets/{petId}" }).click();
      expect(new URL(page.url()).hash).toBe("#getPet");
      const heading = await page.locator("#getPet h3").boundingBox();
      const contents = await page.locator("nav.contents").boundingBox();
      expect(heading && contents).toBeTruthy();
      // On a narrow screen the contents are a bar above the heading, on a wide one a sidebar beside it.
      if (viewport === NARROW) expect(heading?.y).toBeGreaterThanOrEqual((contents?.y ?? 0) + (contents?.height ?? 0));
      else expect(heading?.x).toBeGreaterThanOrEqual((contents?.x ?? 0) + (contents?.width ?? 0));
      expect(await inViewport(page, "#getPet h3")).toBe(true);

      // Every heading with an id links to itself.
      await page.locator("#schema-Error h3 a").click();
      expect(new URL(page.url()).hash).toBe("#schema-Error");
      await close();
    },
    60_000,
  );

  it("shows every example, the folded errors' ones once unfolded", async () => {
    const { page, close } = await openPage();
    const examples = page.locator("pre.example");
    const count = await examples.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const example = examples.nth(i);
      const folded = example.locator("xpath=ancestor::details[not(@open)]");
      if ((await folded.count()) > 0) await folded.locator("summary").click();
      await expect(example.isVisible(), `example ${i}`).resolves.toBe(true);
    }
    await close();
  });

  it("gives curl lines that succeed when pasted into bash after KEY=<an API key>", async () => {
    expect(apiKey).toMatch(/^[\w-]+$/); // pasted without quotes, as a reader would
    const { page, close } = await openPage();
    const operations = [];
    for (const section of await page.locator("section.operation").all())
      operations.push({
        id: (await section.getAttribute("id")) ?? "",
        // What a reader copies: the text as shown.
        line: await section.locator("pre.curl").innerText(),
        // The statuses the page documents for the operation.
        status: await section.locator("summary .status").allTextContents(),
      });
    await close();
    expect(operations.length).toBeGreaterThanOrEqual(3);

    const run = promisify(execFile);
    for (const { id, line, status } of operations) {
      const expected = status.find((code) => /^2\d\d$/.test(code));
      expect(line, id).toMatch(/^curl /);
      expect(expected, id).toBeDefined();
      // A pet the lines before did not create (getPet's example id, say) is made first.
      const petId = Number(line.match(/\/v1\/pets\/(\d+)'/)?.[1] ?? 0);
      expect(petId, id).toBeLessThanOrEqual(100);
      while (petId > 0 && !(await petExists(petId))) await createPet("filler");

      const { stdout } = await run("bash", ["-c", `KEY=${apiKey} ; ${line}`]);
      const statusLine = stdout.split("\r\n")[0] ?? "";
      expect(statusLine, `${id}: ${line}\n${stdout}`).toMatch(new RegExp(`^HTTP/[\\d.]+ ${expected}\\b`));
    }
  });
});

const petExists = async (id: number) => {
  const response = await api(`/v1/pets/${id}`);
  await response.arrayBuffer();
  return response.status !== 404;
};
