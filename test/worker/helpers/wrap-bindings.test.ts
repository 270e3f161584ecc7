import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { countRoundTrips } from "../../helpers/wrap-bindings";

// The round-trip counter of test/worker/pets/round-trips.test.ts, on the real bindings.

describe("countRoundTrips", () => {
  it("counts each D1 statement run, and a batch or an exec as one round trip", async () => {
    const { env: counted, counts, reset } = countRoundTrips(env);
    const one = counted.DB.prepare("select ? as value");
    expect(await one.bind(1).first("value")).toBe(1);
    expect((await one.bind(2).all()).results).toEqual([{ value: 2 }]);
    await one.bind(3).run();
    expect(await one.bind(4).raw()).toEqual([[4]]);
    expect(counts).toEqual({ d1: 4, kv: 0 });

    reset();
    const results = await counted.DB.batch([one.bind(5), one.bind(6), counted.DB.prepare("select 7")]);
    expect(results.map((result) => result.results)).toEqual([[{ value: 5 }], [{ value: 6 }], [{ 7: 7 }]]);
    await counted.DB.exec("select 1; select 2");
    expect(counts).toEqual({ d1: 2, kv: 0 });
  });

  it("counts a D1 session's statements and batches the same way, and not its bookmark", async () => {
    const { env: counted, counts } = countRoundTrips(env);
    const session = counted.DB.withSession("first-unconstrained");
    expect(await session.prepare("select 1 as value").first("value")).toBe(1);
    await session.batch([session.prepare("select 1"), session.prepare("select 2")]);
    session.getBookmark();
    expect(counts).toEqual({ d1: 2, kv: 0 });
  });

  it("counts every KV call", async () => {
    const { env: counted, counts } = countRoundTrips(env);
    await counted.API_KEYS.put("wrap-bindings", "value", { metadata: { label: "x" } });
    expect(await counted.API_KEYS.get("wrap-bindings")).toBe("value");
    expect((await counted.API_KEYS.getWithMetadata("wrap-bindings")).metadata).toEqual({ label: "x" });
    expect((await counted.API_KEYS.list({ prefix: "wrap-bindings" })).keys).toHaveLength(1);
    await counted.API_KEYS.delete("wrap-bindings");
    expect(counts).toEqual({ d1: 0, kv: 5 });
  });

  it("passes other bindings through and leaves the original env uncounted", async () => {
    const { env: counted, counts } = countRoundTrips(env);
    expect(counted.ENVIRONMENT).toBe(env.ENVIRONMENT);
    await env.DB.prepare("select 1").first();
    expect(counts).toEqual({ d1: 0, kv: 0 });
  });
});
