import { describe, expect, it, vi } from "vitest";
import { ApiError, type ClientOptions, createClient, NetworkError, TimeoutError } from "../../../client/src/index";

// The client's retries and warnings against a stand-in `fetch` that answers as told, and
// a clock the test holds (`sleep`): what is retried, how long it waits, and what it gives
// up on. test/e2e/local/client.test.ts and the outage test meet the real service.

const PET = { id: 1, name: "Rex", categoryId: 1, status: "available" };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
const errorBody = (status: number, code: string) => ({ code, message: `a ${code} message`, status });

/** A client whose fetch answers `answers` in turn, recording each request and each wait. */
const standIn = (answers: (() => Response | Promise<Response>)[], options: Partial<ClientOptions> = {}) => {
  const requests: Request[] = [];
  const waits: number[] = [];
  const client = createClient({
    baseUrl: "https://petstore.example/v1",
    apiKey: `ps_test_${"0".repeat(43)}`,
    fetch: async (input, init) => {
      requests.push(new Request(input, init));
      const answer = answers[requests.length - 1];
      if (!answer) throw new Error("no more answers");
      return answer();
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
    onWarning: () => {},
    ...options,
  });
  return { client, requests, waits };
};

describe("retries", () => {
  it("waits what Retry-After says (seconds) plus a jitter under the first backoff step, then retries with the same Idempotency-Key", async () => {
    const { client, requests, waits } = standIn([
      () => json(503, errorBody(503, "unavailable"), { "Retry-After": "3" }),
      () => json(201, PET),
    ]);
    expect(await client.createPet({ name: "Rex", categoryId: 1 })).toEqual(PET);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(3_000);
    expect(waits[0]).toBeLessThan(3_500);
    const keys = requests.map((request) => request.headers.get("Idempotency-Key"));
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys).toEqual([keys[0], keys[0]]);
    expect(await requests[1]?.json()).toEqual({ name: "Rex", categoryId: 1 });
  });

  it("reads Retry-After as an HTTP-date too, and sends the caller's Idempotency-Key when given", async () => {
    const at = new Date(Date.now() + 5_000).toUTCString();
    const { client, requests, waits } = standIn([
      () => json(429, errorBody(429, "rate_limited"), { "Retry-After": at }),
      () => json(201, PET),
    ]);
    await client.createPet({ name: "Rex", categoryId: 1 }, { idempotencyKey: "order-7" });
    expect(waits[0]).toBeGreaterThan(3_000);
    expect(waits[0]).toBeLessThanOrEqual(5_500);
    expect(requests.map((request) => request.headers.get("Idempotency-Key"))).toEqual(["order-7", "order-7"]);
  });

  it("throws at once, without waiting, when Retry-After is past maxRetryWaitMs", async () => {
    const { client, requests, waits } = standIn([
      () => json(429, errorBody(429, "rate_limited"), { "Retry-After": "60" }),
    ]);
    const error = await client.listPets().catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfter: 60 });
    expect([requests.length, waits.length]).toEqual([1, 0]);
  });

  it("backs off with full jitter on 502, 504, timeouts and failed connections, up to maxRetries, then throws the last failure", async () => {
    const { client, requests, waits } = standIn(
      [() => new Response("bad gateway", { status: 502 }), () => json(504, {}), () => json(502, {})],
      { maxRetries: 2 },
    );
    await expect(client.listPets()).rejects.toMatchObject({ status: 502, code: "unexpected_response" });
    expect(requests).toHaveLength(3);
    expect(waits[0]).toBeLessThan(500);
    expect(waits[1]).toBeLessThan(1_000);

    const unreachable = standIn(
      [() => Promise.reject(new TypeError("fetch failed")), () => new Promise<Response>(() => {})],
      { maxRetries: 1, timeoutMs: 50 },
    );
    const error = await unreachable.client.listPets().catch((caught) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(unreachable.requests).toHaveLength(2);
    const refused = standIn([() => Promise.reject(new TypeError("fetch failed"))], { maxRetries: 0 });
    const network = await refused.client.listPets().catch((caught) => caught);
    expect(network).toBeInstanceOf(NetworkError);
    expect(network.cause).toBeInstanceOf(TypeError);
  });

  it.each([400, 401, 403, 404, 410, 413, 415, 422, 500])("never retries %i", async (status) => {
    const { client, requests } = standIn([() => json(status, errorBody(status, "some_code"))]);
    await expect(client.createPet({ name: "Rex", categoryId: 1 })).rejects.toMatchObject({ status });
    expect(requests).toHaveLength(1);
  });

  it("stops waiting and sending when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const reason = new Error("the caller gave up");
    const { client, requests } = standIn([() => json(503, errorBody(503, "unavailable"), { "Retry-After": "3" })], {
      sleep: undefined,
    });
    const listing = client.listPets({}, { signal: controller.signal });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    controller.abort(reason);
    await expect(listing).rejects.toBe(reason);
    await expect(client.listPets({}, { signal: controller.signal })).rejects.toBe(reason);
    expect(requests).toHaveLength(1);
  });
});

it("cuts a request under way when the caller's signal aborts, even with a fetch that ignores signals", async () => {
  const controller = new AbortController();
  const reason = new Error("the caller gave up");
  const { client, requests } = standIn([() => new Promise<Response>(() => {})], { timeoutMs: 60_000 });
  const listing = client.listPets({}, { signal: controller.signal });
  await vi.waitFor(() => expect(requests).toHaveLength(1));
  controller.abort(reason);
  await expect(listing).rejects.toBe(reason);
  expect(requests).toHaveLength(1);
});

describe("answers", () => {
  it("gives an ApiError for a body that is not the Error shape; a 2xx that is not JSON is retried, then one too", async () => {
    const notJson = () => new Response("not json", { status: 200, headers: { "X-Request-Id": "def" } });
    const { client, requests } = standIn([
      () => new Response("<html>teapot</html>", { status: 418, headers: { "X-Request-Id": "abc" } }),
      notJson,
      notJson,
      notJson,
    ]);
    await expect(client.getPet(1)).rejects.toMatchObject({
      status: 418,
      code: "unexpected_response",
      requestId: "abc",
    });
    await expect(client.getPet(1)).rejects.toMatchObject({
      status: 200,
      code: "unexpected_response",
      requestId: "def",
    });
    expect(requests).toHaveLength(4);
  });

  it("reports a deprecated operation once per client, with its sunset and successor", async () => {
    const warnings: unknown[] = [];
    const deprecated = {
      Deprecation: "@1795219200",
      Sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
      Link: '<../pets>; rel="successor-version"',
    };
    const { client } = standIn(
      [() => json(200, PET, deprecated), () => json(410, errorBody(410, "gone"), deprecated)],
      {
        onWarning: (warning) => warnings.push(warning),
      },
    );
    await client.getPet(1);
    await expect(client.getPet(1)).rejects.toMatchObject({ status: 410, code: "gone" });
    expect(warnings).toEqual([
      {
        operation: "getPet",
        sunset: new Date("2030-12-05T00:00:00Z"),
        successor: "https://petstore.example/v1/pets",
        message:
          "getPet is deprecated, removed on Thu, 05 Dec 2030 00:00:00 GMT; use https://petstore.example/v1/pets.",
      },
    ]);
  });

  it("keeps the newest bookmark it has seen, and starts from the one it is given", async () => {
    const older = `00000001-00000001-00000001-${"a".repeat(32)}`;
    const newer = `00000002-00000001-00000001-${"b".repeat(32)}`;
    const { client, requests } = standIn(
      [
        () => json(200, [], { "x-d1-bookmark": newer }),
        () => json(200, [], { "x-d1-bookmark": older }),
        () => json(200, [], { "x-d1-bookmark": "not a bookmark" }),
        () => json(200, []),
      ],
      { bookmark: older },
    );
    for (let call = 0; call < 4; call++) await client.listPets();
    expect(requests.map((request) => request.headers.get("x-d1-bookmark"))).toEqual([older, newer, newer, newer]);
    expect(client.bookmark).toBe(newer);
  });
});
