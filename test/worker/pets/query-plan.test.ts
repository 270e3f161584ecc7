import { Placeholder } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listingQuery } from "../../../src/core/queries";
import { messagesOf } from "../../../src/lib/faults";
import { petsDatabase } from "../../helpers/segments";

/** The plan of a prepared query, with its placeholders filled from `values`. */
const planOf = async ({ sql, params }: { sql: string; params: unknown[] }, values: Record<string, unknown>) => {
  const bound = params.map((param) => (param instanceof Placeholder ? values[param.name] : param));
  const { results } = await petsDatabase()
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...bound)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
};

describe("listing queries", () => {
  it.each([
    ["without a status", undefined],
    ["with a status", "sold" as const],
  ])("search an index %s and never scan pets", async (_, status) => {
    const plan = await planOf(listingQuery(status).getQuery(), { afterId: 50_000, limit: 21, status });
    expect(plan.join("\n")).not.toMatch(/SCAN pets|TEMP B-TREE/);
    expect(plan.join("\n")).toMatch(
      status
        ? /SEARCH pets USING (COVERING )?INDEX pets_status_id_idx \(status=\? AND id>\?\)/
        : /SEARCH pets USING INTEGER PRIMARY KEY \(rowid>\?\)/,
    );
  });
});

describe("a prepared query", () => {
  it("runs only on the database a request lends it, so that no request's query runs on another's session", async () => {
    const error = await listingQuery(undefined)
      .all({ afterId: 0, limit: 1 })
      .catch((caught: Error) => caught);
    // Drizzle wraps the error of the statement in its own.
    expect(messagesOf(error).at(-1)).toMatch(/outside runPrepared/);
  });
});
