import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnWrangler } from "../../scripts/wrangler";
import { CHROMIUM_ARGS, findChromium } from "./chromium";

// The reference page in a real browser: `wrangler dev` serves the Worker as in
// production, and Debian's Chromium renders the page.

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

let wrangler: ChildProcess | undefined;
let wranglerOutput = "";
let browser: Browser | undefined;
let origin = "";
const state = mkdtempSync(path.join(tmpdir(), "petstore-docs-test-"));

const waitUntilReady = async () => {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (wrangler?.exitCode !== null) throw new Error(`wrangler dev exited:\n${wranglerOutput}`);
    try {
      if ((await fetch(`${origin}/v1/openapi.json`)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`wrangler dev did not answer within 90 s:\n${wranglerOutput}`);
};

beforeAll(async () => {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  // Its own process group, so that afterAll ends wrangler and the workerd it starts.
  wrangler = spawnWrangler(
    [
      "dev",
      ...["--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort)],
      ...["--var", "CURSOR_SECRET:docs-page-test", "--persist-to", state, "--show-interactive-dev-session=false"],
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  for (const stream of [wrangler.stdout, wrangler.stderr]) stream?.on("data", (chunk) => (wranglerOutput += chunk));
  await waitUntilReady();
  browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (wrangler?.pid && wrangler.exitCode === null) {
    const exited = new Promise((resolve) => wrangler?.once("exit", resolve));
    process.kill(-wrangler.pid, "SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (wrangler.exitCode === null) process.kill(-wrangler.pid, "SIGKILL");
  }
  rmSync(state, { recursive: true, force: true });
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
