import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, createApiKey, faultLogLines } from "../../helpers/index";
import { withLaggingReplicaBindings } from "../../helpers/lagging-replica";
import { FIRST_PAGE_QUERIES } from "../../helpers/segments";

let key: string;
beforeAll(async () => {
  key = await createApiKey("observed team");
  // With segments, an isolate reads once which closed ones may hold a young Idempotency-Key (src/core/open-segment.ts).
  await call("/v1/pets", {
    key,
    method: "POST",
    json: { name: "Warm", categoryId: 1 },
    headers: { "Idempotency-Key": "warm" },
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const requests = [
  ["a list (200)", "/v1/pets", {}],
  ["a create (201)", "/v1/pets", { method: "POST", json: { name: "Rex", categoryId: 1 } }],
  ["an invalid query (400)", "/v1/pets?limit=0", {}],
  ["a missing key (401)", "/v1/pets", { key: null }],
  ["a missing pet (404)", "/v1/pets/999999", {}],
  ["an unknown path (404)", "/v1/nothing", {}],
  ["a wrong method (405)", "/v1/pets", { method: "DELETE" }],
] as const;

describe("every response", () => {
  it.each(requests)("carries a generated X-Request-Id and nosniff for %s", async (_, path, init) => {
    const response = await call(path, { key, ...init });
    expect(response.headers.get("X-Request-Id")).toMatch(UUID);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("keeps a sane X-Request-Id from the client and replaces any other", async () => {
    const kept = await call("/v1/pets", { key, headers: { "X-Request-Id": "client-42.retry:1" } });
    expect(kept.headers.get("X-Request-Id")).toBe("client-42.retry:1");
    // 128 characters at most (docs/api.md): the longest is kept, one more is not.
    const longest = await call("/v1/pets", { key, headers: { "X-Request-Id": "x".repeat(128) } });
    expect(longest.headers.get("X-Request-Id")).toBe("x".repeat(128));
    for (const insane of ["with space", "x".repeat(129), "semi;colon", "<script>"]) {
      const replaced = await call("/v1/pets", { key, headers: { "X-Request-Id": insane } });
      expect(replaced.headers.get("X-Request-Id")).toMatch(UUID);
    }
  });
});

describe("authenticated routes", () => {
  it.each(requests.slice(0, 5))("answer %s with Cache-Control: no-store", async (_, path, init) => {
    const response = await call(path, { key, ...init });
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("the access log", () => {
  const accessLines = async (request: () => Promise<Response>) => {
    const log = vi.spyOn(console, "log");
    const response = await request();
    const lines = log.mock.calls.map(([line]) => String(line));
    log.mockRestore();
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(key);
    return { response, line: JSON.parse(lines[0] ?? "") };
  };

  it("writes one JSON line per request with its id, route, status, key label and error code, never the key", async () => {
    const { response, line } = await accessLines(() =>
      call("/v1/pets/999999", { key, headers: { "X-Request-Id": "trace-me" } }),
    );
    expect(line).toEqual({
      level: "info",
      requestId: "trace-me",
      method: "GET",
      route: "/v1/pets/:petId",
      path: "/v1/pets/999999",
      status: 404,
      durationMs: expect.any(Number),
      key: "observed team",
      errorCode: "not_found",
      d1RoundTrips: 1,
      d1RowsRead: expect.any(Number),
      d1RowsWritten: 0,
      d1DurationMs: expect.any(Number),
      // Locally the only copy of the database is its primary.
      d1ServedByPrimary: true,
      d1Retries: 0,
    });
    expect(response.status).toBe(404);
  });

  it("says whether a read came from the isolate's cache, and what D1 reported when it did not", async () => {
    const pet = (await (
      await call("/v1/pets", { key, method: "POST", json: { name: "Logged", categoryId: 1 } })
    ).json()) as {
      id: number;
    };
    // Created pets are cached: a new isolate's first read is what a miss looks like.
    const { line: miss } = await accessLines(() => call("/v1/pets?limit=100", { key }));
    expect(miss).toMatchObject({ status: 200, isolateCache: "miss", d1RoundTrips: FIRST_PAGE_QUERIES, d1Retries: 0 });
    expect(miss.d1RowsRead).toBeGreaterThan(0);
    expect(miss.d1DurationMs).toBeGreaterThanOrEqual(0);
    expect(miss).not.toHaveProperty("errorCode");
    const { line: hit } = await accessLines(() => call(`/v1/pets/${pet.id}`, { key }));
    expect(hit).toMatchObject({ status: 200, isolateCache: "hit", d1Retries: 0 });
    expect(Object.keys(hit).filter((field) => field.startsWith("d1") && field !== "d1Retries")).toEqual([]);
  });

  it("says whether D1 answered from the primary or from a replica", async () => {
    const bindings = await withLaggingReplicaBindings();
    const created = await call("/v1/pets", { key, bindings, method: "POST", json: { name: "Far", categoryId: 1 } });
    const bookmark = created.headers.get("x-d1-bookmark") ?? "";
    // A partial page always goes to D1: without a bookmark to the replica, with the write's to the primary.
    const { line: nearest } = await accessLines(() => call("/v1/pets?limit=100", { key, bindings }));
    expect(nearest).toMatchObject({ status: 200, d1RoundTrips: FIRST_PAGE_QUERIES, d1ServedByPrimary: false });
    const { line: own } = await accessLines(() =>
      call("/v1/pets?limit=100", { key, bindings, headers: { "x-d1-bookmark": bookmark } }),
    );
    expect(own).toMatchObject({ status: 200, d1RoundTrips: FIRST_PAGE_QUERIES, d1ServedByPrimary: true });
  });

  it("counts the rows a create wrote, and names the code of a refused request", async () => {
    const { line: created } = await accessLines(() =>
      call("/v1/pets", {
        key,
        method: "POST",
        json: { name: "Counted", categoryId: 1 },
        headers: { "Idempotency-Key": "log-1" },
      }),
    );
    expect(created).toMatchObject({ status: 201, d1RoundTrips: 1 });
    expect(created.d1RowsWritten).toBeGreaterThanOrEqual(2);
    expect(created).not.toHaveProperty("isolateCache");
    const { line: refused } = await accessLines(() => call("/v1/pets", { key: null }));
    expect(refused).toMatchObject({ status: 401, errorCode: "unauthorized" });
    expect(refused).not.toHaveProperty("d1RoundTrips");
  });

  it("puts the request id on the error line of a 500", async () => {
    const { env } = await import("cloudflare:workers");
    await env.DB.exec("ALTER TABLE pets RENAME TO pets_gone");
    try {
      const lines = await faultLogLines(async () => {
        const response = await call("/v1/pets", { key, headers: { "X-Request-Id": "broken-1" } });
        expect(response.status).toBe(500);
      });
      expect(lines).toEqual([expect.objectContaining({ level: "error", requestId: "broken-1" })]);
      expect(lines[0]?.cause).toContain("no such table");
    } finally {
      await env.DB.exec("ALTER TABLE pets_gone RENAME TO pets");
    }
  });
});
