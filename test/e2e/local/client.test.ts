import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  type ClientOptions,
  createClient,
  NetworkError,
  type Pet,
  TimeoutError,
} from "../../../client/src/index";
import { generateApiKey } from "../../../src/keys/api-key";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { checkedFetch } from "../helpers/client";
import { type Harness, startHarness } from "../helpers/harness";

/** A key of the right shape that no API knows, for the stand-ins. */
const FAKE_KEY = `ps_test_${"0".repeat(43)}`;

// The client (client/) over real HTTP against the Worker in a harness of this file's own,
// so that the pets it walks are its own. Its retries against stand-ins:
// test/node/client/client-retries.test.ts; during a real D1 outage: test/e2e/local/outages.test.ts.

let server: Harness;
let readKey: string;
beforeAll(async () => {
  server = await startHarness();
  readKey = await server.issueKey({ label: "reads only", scopes: ["read"] });
});
afterAll(() => server?.close());

/** A client of the harness whose requests and answers are recorded, as a caller's `fetch` sees them. */
const recorded = (options: Partial<ClientOptions> = {}) => {
  const exchanges: { request: Request; response: Response }[] = [];
  const client = createClient({
    baseUrl: `${server.origin}/v1`,
    apiKey: server.apiKey,
    onWarning: () => {},
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const response = await checkedFetch(request.clone());
      exchanges.push({ request, response });
      return response;
    },
    ...options,
  });
  return { client, exchanges };
};

describe("every operation against the API", () => {
  it("creates, lists and gets a pet; warns once that getPet is deprecated, with its sunset and successor", async () => {
    const warnings: unknown[] = [];
    const { client } = recorded({ onWarning: (warning) => warnings.push(warning) });
    const created = await client.createPet({ name: "Client Rex", categoryId: 3, status: "pending" });
    expect(created).toEqual({ id: expect.any(Number), name: "Client Rex", categoryId: 3, status: "pending" });
    const { pets } = await client.listPets({ status: "pending", limit: 100 });
    expect(pets).toContainEqual(created);
    expect(await client.getPet(created.id)).toEqual(created);
    expect(await client.getPet(created.id)).toEqual(created);
    expect(warnings).toEqual([
      {
        operation: "getPet",
        sunset: new Date("2030-12-05T00:00:00Z"),
        successor: `${server.origin}/v1/pets`,
        message: expect.stringMatching(/^getPet is deprecated, removed on Thu, 05 Dec 2030/),
      },
    ]);
  });

  it("walks 250 pets in pages of 7, each once and in order, and resumes from a stored nextCursor", async () => {
    const run = crypto.randomUUID().slice(0, 8);
    const { client, exchanges } = recorded();
    const created: Pet[] = [];
    for (let batch = 0; batch < 25; batch++) {
      const pets = Array.from({ length: 10 }, (_, index) => ({
        name: `walk ${run} ${batch * 10 + index}`,
        categoryId: 1,
      }));
      created.push(...(await Promise.all(pets.map((pet) => client.createPet(pet)))));
    }
    const before = exchanges.length;
    const walked: Pet[] = [];
    for await (const pet of client.listAllPets({ limit: 7 })) walked.push(pet);
    const ours = walked.filter((pet) => pet.name.startsWith(`walk ${run} `));
    expect(ours).toEqual(created.toSorted((a, b) => a.id - b.id));
    expect(new Set(walked.map(({ id }) => id)).size).toBe(walked.length);
    expect(exchanges.length - before).toBe(Math.ceil(walked.length / 7));

    // A cursor stored as a string and used by another client, later, continues the walk.
    const first = await client.listPets({ limit: 7 });
    const stored = JSON.stringify({ cursor: first.nextCursor });
    const resumed = await recorded().client.listPets({ limit: 7, cursor: JSON.parse(stored).cursor });
    expect(resumed.pets).toEqual(walked.slice(7, 14));
  });

  it("sends the bookmark of a create on its next request", async () => {
    const { client, exchanges } = recorded();
    await client.createPet({ name: "Bookmarked Rex", categoryId: 1 });
    const bookmark = exchanges[0]?.response.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/);
    await client.listPets({ limit: 1 });
    expect(exchanges[0]?.request.headers.get("x-d1-bookmark")).toBeNull();
    expect(exchanges[1]?.request.headers.get("x-d1-bookmark")).toBe(bookmark);
    expect(client.bookmark).toBe(exchanges[1]?.response.headers.get("x-d1-bookmark"));
  });
});

describe("errors", () => {
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail("it succeeded"),
      (error) => error,
    );

  it("gives the status, code, message and X-Request-Id of a 400, 401, 403 and 404, each sent once", async () => {
    const plain = recorded();
    const unknown = recorded({ apiKey: generateApiKey("development") });
    const reader = recorded({ apiKey: readKey });
    const errors = [
      await failure(plain.client.createPet({ name: "", categoryId: 1 })),
      await failure(unknown.client.listPets()),
      await failure(reader.client.createPet({ name: "Refused Rex", categoryId: 1 })),
      await failure(plain.client.getPet(987_654_321)),
    ];
    expect(errors.map((error) => [error.constructor, error.status, error.code])).toEqual([
      [ApiError, 400, "invalid_request"],
      [ApiError, 401, "unauthorized"],
      [ApiError, 403, "forbidden"],
      [ApiError, 404, "not_found"],
    ]);
    for (const error of errors) {
      expect(error.message).toMatch(/\w/);
      expect(error.requestId).toMatch(/^[\w.:=+-]{1,128}$/);
    }
    expect([plain, unknown, reader].map(({ exchanges }) => exchanges.length)).toEqual([2, 1, 1]);
  });

  it("waits out the 429 of the throttle on guessed keys when told to, and throws it at once past maxRetryWaitMs", async () => {
    const statuses = await inOneLimiterWindow(async (run) => {
      // Locally the client's address is the CF-Connecting-IP it sends.
      const address = `198.51.100.${run + ((crypto.getRandomValues(new Uint8Array(1))[0] ?? 0) % 200)}`;
      const fromAddress = (options: Partial<ClientOptions>) =>
        recorded({
          apiKey: generateApiKey("development"),
          fetch: (input, init) =>
            checkedFetch(input, { ...init, headers: { ...init.headers, "CF-Connecting-IP": address } }),
          ...options,
        }).client;
      const waits: number[] = [];
      const guesses = Array.from({ length: 60 }, () => failure(fromAddress({ maxRetries: 0 }).listPets()));
      const guessed = (await Promise.all(guesses)).map((error) => error.status);
      const atOnce = await failure(fromAddress({}).listPets());
      const waited = await failure(
        fromAddress({ maxRetries: 1, maxRetryWaitMs: 60_000, sleep: async (ms) => void waits.push(ms) }).listPets(),
      );
      return { guessed, atOnce, waited, waits };
    });
    expect(new Set(statuses.guessed)).toEqual(new Set([401]));
    expect(statuses.atOnce).toMatchObject({ status: 429, code: "rate_limited", retryAfter: 60 });
    expect(statuses.waited).toMatchObject({ status: 429, retryAfter: 60 });
    expect(statuses.waits).toHaveLength(1);
    expect(statuses.waits[0]).toBeGreaterThanOrEqual(60_000);
  });

  describe("from stand-ins over HTTP", () => {
    let standIn: Server;
    let origin: string;
    beforeAll(async () => {
      standIn = createServer((request, response) => {
        if (request.url?.startsWith("/silent/")) return; // never answers
        response.writeHead(502, { "Content-Type": "text/html" }).end("<h1>502 Bad Gateway</h1>");
      });
      await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
      origin = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      standIn.closeAllConnections();
      standIn.close();
    });
    const sleep = async () => {};

    it("a 502 without an Error body, retried, then thrown as an ApiError", async () => {
      const client = createClient({ baseUrl: `${origin}/v1`, apiKey: FAKE_KEY, sleep });
      expect(await failure(client.listPets())).toMatchObject({ status: 502, code: "unexpected_response" });
    });

    it("no answer in time is a TimeoutError; a refused connection a NetworkError", async () => {
      const silent = createClient({ baseUrl: `${origin}/silent/v1`, apiKey: FAKE_KEY, sleep, timeoutMs: 100 });
      expect(await failure(silent.listPets())).toBeInstanceOf(TimeoutError);
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise((resolve) => closed.close(resolve));
      const refused = createClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: FAKE_KEY, sleep });
      expect(await failure(refused.listPets())).toBeInstanceOf(NetworkError);
    });
  });
});
