import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { BENCH_PET, periodicWrites, targetStatements } from "../../../bench/queries";
import { callingGetPet, flushUsage } from "../../helpers/get-pet-calls";
import { call, createApiKey, createPet } from "../../helpers/index";
import { type StorageCall, wrapBindings } from "../../helpers/wrap-bindings";

// The bench's floor (bench/floor.ts) sends D1 the statements that bench/queries.ts takes from
// the API's query code. Here the API itself, on the real D1, is seen to send exactly those for
// the bench's partial page and create, in a session opened alike, and, after getPet's answer,
// the write of its counted calls: the floor's "same SQL" holds by a test, not by trust.

let key: string;
beforeAll(async () => {
  key = await createApiKey("bench statements");
  for (const name of ["Ada", "Bo", "Cy"]) await createPet(key, { name, categoryId: 1, status: "pending" });
  // The key's first use of the day is recorded in D1: done here, so that the requests below send only their own.
  await call("/v1/pets?limit=1", { key });
});

/** The D1 calls a request makes before its answer is ready. */
const d1CallsOf = async (path: string, init: RequestInit = {}) => {
  const calls: StorageCall[] = [];
  let answered = false;
  const bindings = wrapBindings(env, (storageCall) => {
    if (storageCall.binding === "DB" && !answered) calls.push(storageCall);
    return undefined;
  });
  const response = await call(path, { ...init, key, bindings, onAnswer: () => (answered = true) });
  await response.arrayBuffer();
  return { status: response.status, calls: calls.map(({ sql, method, session }) => ({ sql, method, session })) };
};

describe("the bench's floor statements", () => {
  it("are the API's own for the partial page", async () => {
    const { partialPage } = await targetStatements();
    const { status, calls } = await d1CallsOf("/v1/pets?status=pending");
    expect(status).toBe(200);
    expect(calls).toEqual(partialPage.map(({ sql, method }) => ({ sql, method, session: "first-unconstrained" })));
  });

  it("are the API's own for a create without Idempotency-Key", async () => {
    const { create } = await targetStatements();
    const { status, calls } = await d1CallsOf("/v1/pets", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: BENCH_PET.name, categoryId: BENCH_PET.categoryId }),
    });
    expect(status).toBe(201);
    expect(calls).toEqual(create.map(({ sql, method }) => ({ sql, method, session: "first-unconstrained" })));
  });
});

describe("the bench's floor write after getPet", () => {
  const { startGetPet } = callingGetPet();

  it("is the API's own: one batch of its statement, on the binding itself, once the interval has passed", async () => {
    // A day after the file's first request, as when it ran before midnight: the key's first use
    // of this day is written too (src/keys/last-used.ts), behind it, on another operation.
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000);
    const earlier = createExecutionContext();
    expect((await call("/v1/pets?limit=1", { key, context: earlier })).status).toBe(200);
    await waitOnExecutionContext(earlier);
    const calls: StorageCall[] = [];
    const bindings = wrapBindings(env, (storageCall) => {
      if (storageCall.binding === "DB") calls.push(storageCall);
      return undefined;
    });
    const { response, context } = await startGetPet(key, { bindings });
    expect(response.status).toBe(200);
    expect(calls, "before the interval has passed").toEqual([]);
    await flushUsage(context);
    const { getPet } = periodicWrites(Date.now());
    const sql = getPet?.statements.map((statement) => statement.sql).join(";\n");
    expect(calls.map(({ sql, method, session }) => ({ sql, method, session }))).toEqual([
      { sql, method: "batch", session: undefined },
    ]);
  });
});
