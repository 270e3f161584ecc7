import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../src/db/client";
import { listPets } from "../src/db/pets";

const planOf = async (query: { sql: string; params: unknown[] }) => {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
    .bind(...query.params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
};

describe("listing queries", () => {
  it.each([
    ["without a status", undefined],
    ["with a status", "sold" as const],
  ])("search an index %s and never scan pets", async (_, status) => {
    const db = createDatabase(env.DB);
    const plan = await planOf(listPets(db, { afterId: 50_000, limit: 21, status }).toSQL());
    expect(plan.join("\n")).not.toMatch(/SCAN pets|TEMP B-TREE/);
    expect(plan.join("\n")).toMatch(
      status
        ? /SEARCH pets USING (COVERING )?INDEX pets_status_id_idx \(status=\? AND id>\?\)/
        : /SEARCH pets USING INTEGER PRIMARY KEY \(rowid>\?\)/,
    );
  });
});
