import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../scripts/dev-server";
import { CHROMIUM_ARGS, findChromium } from "./chromium";

// The reference page in a real browser: `wrangler dev` serves the Worker as in
// production, and Debian's Chromium renders the page.

let server: DevServer | undefined;
let browser: Browser | undefined;
let origin = "";

beforeAll(async () => {
  server = await startDevServer({
    name: "the docs page test",
    command: "wrangler dev",
    args: ["--var", "CURSOR_SECRET:docs-page-test"],
  });
  origin = server.origin;
  browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("GET /v1/docs in Chromium", () => {
  it("renders the three operations from this host alone", async () => {
    const context = await (browser as Browser).newContext();
    const requested: string[] = [];
    const complaints: string[] = [];
    context.on("request", (request) => requested.push(request.url()));
    const page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") complaints.push(message.text());
    });
    page.on("pageerror", (error) => complaints.push(error.message));

    const response = await page.goto(`${origin}/v1/docs`);
    expect(response?.status()).toBe(200);
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

    expect(requested).toEqual([`${origin}/v1/docs`]);
    expect(complaints).toEqual([]);
    await context.close();
  }, 60_000);
});
