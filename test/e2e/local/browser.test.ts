import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Pet } from "../../../client/src/index";
import { bundleClient } from "../../../scripts/lib/client-bundle";
import { connectChromium, watchApiAnswers } from "../helpers/chromium";
import { type Harness, startHarness } from "../helpers/harness";
import { type HostileServer, startHostileServer } from "../helpers/hostile-server";

// What a browser does with CORS, in Chromium: pages served from two other origins call
// an API configured as staging and production are (ALLOWED_ORIGINS lists origins, here
// only the first page's), served with that var by wrangler's test harness. The pages
// also serve the client (client/), bundled as a caller's bundler would.

const clientBundle = bundleClient();

/** A page server on a free port: its origin is one the API may or may not allow. */
const servePage = async (): Promise<{ server: Server; origin: string }> => {
  const server = createServer(async (request, response) => {
    if (request.url === "/client.js") {
      response.writeHead(200, { "Content-Type": "text/javascript" }).end(await clientBundle);
      return;
    }
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(
      '<!doctype html><title>A client of the petstore</title><script type="module">import * as petstore from "/client.js"; window.petstore = petstore;</script>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

let allowedPage: Awaited<ReturnType<typeof servePage>>;
let otherPage: Awaited<ReturnType<typeof servePage>>;
let api: Harness;
let browser: Browser;
let standIn: HostileServer;

beforeAll(async () => {
  [allowedPage, otherPage] = await Promise.all([servePage(), servePage()]);
  api = await startHarness({ vars: { ALLOWED_ORIGINS: allowedPage.origin } });
  browser = await connectChromium();
  standIn = await startHostileServer();
});

afterAll(async () => {
  await browser?.close();
  await standIn?.close();
  await api?.close();
  for (const page of [allowedPage, otherPage]) page?.server.close();
});

type Target = { base: string; key: string };

/**
 * Opens a page of `origin` and runs `script` in it, as that page's own code would, against
 * the API; every answer the page gets is checked against the document. A page of an origin
 * the API does not allow gets none but its preflight's, which the browser keeps to itself.
 */
const inPageOf = async <T>(origin: string, script: (target: Target) => Promise<T>, base = api.origin): Promise<T> => {
  const page = await browser.newPage();
  try {
    const answers = await watchApiAnswers(page, api.origin);
    await page.goto(`${origin}/`);
    const result = await page.evaluate(script, { base, key: api.apiKey });
    const checked = await answers.problems();
    expect(checked.problems).toEqual([]);
    if (origin === allowedPage.origin && base === api.origin) expect(checked.answers).toBeGreaterThan(0);
    return result;
  } finally {
    await page.close();
  }
};

describe("a page on an allowed origin", () => {
  it("creates, lists and fetches pets with a key, reading the headers it needs and the body of a 401", async () => {
    const seen = await inPageOf(allowedPage.origin, async ({ base, key }) => {
      const auth = { Authorization: `Bearer ${key}` };
      const create = (name: string) =>
        fetch(`${base}/v1/pets`, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
          body: JSON.stringify({ name, categoryId: 1 }),
        });
      const created = await create("Browser Rex");
      await create("Browser Tom");
      const page = await fetch(`${base}/v1/pets?limit=1`, { headers: auth });
      const pet = (await created.json()) as { id: number };
      const one = await fetch(`${base}/v1/pets/${pet.id}`, { headers: auth });
      const refused = await fetch(`${base}/v1/pets`);
      return {
        created: created.status,
        location: created.headers.get("Location"),
        listed: page.status,
        link: page.headers.get("Link"),
        bookmark: page.headers.get("x-d1-bookmark"),
        requestId: page.headers.get("X-Request-Id"),
        fetched: one.status,
        sunset: one.headers.get("Sunset"),
        refused: refused.status,
        refusal: await refused.json(),
      };
    });
    expect(seen).toMatchObject({
      created: 201,
      location: expect.stringMatching(/^pets\/\d+$/),
      listed: 200,
      link: expect.stringMatching(/; rel="next"$/),
      bookmark: expect.any(String),
      requestId: expect.any(String),
      fetched: 200,
      sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
      refused: 401,
      refusal: { code: "unauthorized", message: expect.any(String), status: 401 },
    });
  });

  it("runs the client: creates pets, walks them, and keeps the bookmark read through CORS", async () => {
    const seen = await inPageOf(allowedPage.origin, async ({ base, key }) => {
      const { createClient } = (globalThis as unknown as { petstore: typeof import("../../../client/src/index") })
        .petstore;
      const client = createClient({ baseUrl: `${base}/v1`, apiKey: key });
      const created: Pet[] = [];
      for (const name of ["Client Rex", "Client Tom", "Client Kit"])
        created.push(await client.createPet({ name, categoryId: 1 }));
      const walked: Pet[] = [];
      for await (const pet of client.listAllPets({ limit: 2 })) walked.push(pet);
      return { created, walked, bookmark: client.bookmark };
    });
    expect(seen.walked).toEqual(expect.arrayContaining(seen.created));
    expect(seen.bookmark).toMatch(/^[0-9a-f]{8}-/);
  });

  it("runs the client against a stand-in: a redirect, an oversized answer and a body of the wrong shape are refused", async () => {
    const seen = await inPageOf(
      allowedPage.origin,
      async ({ base }) => {
        const { createClient } = (globalThis as unknown as { petstore: typeof import("../../../client/src/index") })
          .petstore;
        const client = (behaviour: string) =>
          createClient({ baseUrl: `${base}/${behaviour}/v1`, apiKey: `ps_test_${"a".repeat(43)}`, maxRetries: 0 });
        const codeOf = (call: Promise<unknown>) =>
          call.then(
            () => "none",
            (error) => `${error.name} ${error.code}`,
          );
        return {
          redirect: await codeOf(client("redirect").listPets()),
          huge: await codeOf(client("huge").listPets()),
          wrongShape: await codeOf(client("object").listPets()),
        };
      },
      standIn.origin,
    );
    expect(seen).toEqual({
      redirect: "ApiError unexpected_response",
      huge: "ApiError response_too_large",
      wrongShape: "ApiError unexpected_response",
    });
    expect(standIn.hugeBytesSent[0]).toBeLessThan(16 * 2 ** 20);
  });

  it("reads the 404 of unknown paths, preflights included", async () => {
    const statuses = await inPageOf(allowedPage.origin, async ({ base, key }) => {
      const read = async (path: string) => {
        const response = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
        return [response.status, ((await response.json()) as { code: string }).code];
      };
      return [await read("/v1/pets/"), await read("/v1/pets/1/2"), await read("/v1/unknown")];
    });
    expect(statuses).toEqual([
      [404, "not_found"],
      [404, "not_found"],
      [404, "not_found"],
    ]);
  });
});

describe("a page on an origin that is not allowed", () => {
  it("cannot read any answer of the API, not even with a valid key", async () => {
    const outcome = await inPageOf(otherPage.origin, async ({ base, key }) => {
      try {
        const response = await fetch(`${base}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
        return `read a ${response.status}`;
      } catch (error) {
        return `blocked: ${(error as Error).name}`;
      }
    });
    expect(outcome).toBe("blocked: TypeError");
  });
});
