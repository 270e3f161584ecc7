import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteExpiredIdempotencyKeys } from "../../../src/core/queries";
import { deleteInBatches } from "../../../src/db/clean-up";
import { createDatabase } from "../../../src/db/client";
import worker from "../../../src/index";
import { createApiKey, createPet } from "../../helpers/index";
import { petsDatabase } from "../../helpers/segments";

// The hourly clean-ups at volume, on the suite's real D1: every expired row goes, over as
// many runs as it takes, and no statement deletes more than a batch, so that none holds the
// database long (D1 runs one query at a time: every request waits behind it). How long a
// read waits meanwhile, at 1,000,000 rows: `npm run bench:clean-up` (bench/README.md).

/** docs/architecture.md: at most 1,000 rows a statement, D1's guidance. */
const BATCH_ROWS = 1_000;
/** docs/architecture.md: a run starts no batch after 60 s. */
const BUDGET_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `rows` idempotency records of one pet (in its segment), each created `age` ms before `now`, older ones first. */
const insertRecords = async (petId: number, rows: number, now: number, age: number, prefix: string) => {
  await petsDatabase()
    .prepare(
      `insert into idempotency_keys (api_key_hash, idempotency_key, request_hash, pet_id, created_at)
     with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
     select 'clean-up-test', ? || i, 'request', ?, ? - ? - i from n`,
    )
    .bind(rows, prefix, petId, now, age)
    .run();
};

const countRecords = async (prefix: string) =>
  (
    await petsDatabase()
      .prepare("select count(*) as count from idempotency_keys where idempotency_key like ? || '%'")
      .bind(prefix)
      .first<{ count: number }>()
  )?.count ?? 0;

/** D1 with each statement's changed rows seen: the real binding, its results read on their way back. */
const watchChanges = (d1: D1Database) => {
  const changes: number[] = [];
  const watch = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => watch(target.bind(...values));
        if (property === "run") {
          return async () => {
            const result = await target.run();
            changes.push(result.meta.changes);
            return result;
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const watched = new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => watch(target.prepare(sql));
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { d1: watched, changes };
};

describe("a clean-up run's budget", () => {
  /** The batches a run makes when its clock says `elapsedMs` after the first, and there are 3 full ones to make. */
  const batchesAt = async (elapsedMs: number) => {
    const readings = [0];
    let batches = 0;
    const outcome = await deleteInBatches(
      async (limit) => (++batches <= 3 ? limit : 0),
      () => readings.shift() ?? elapsedMs,
    );
    return outcome.statements;
  };

  it("starts another batch until 60 s have passed on its clock, and none once they have", async () => {
    expect(await batchesAt(59_999)).toBe(4);
    expect(await batchesAt(60_000)).toBe(1);
  });

  it("makes at most 900 queries a run, shared by its clean-ups (the platform allows 1,000)", async () => {
    const full = async (limit: number) => limit;
    const budget = { left: 900 };
    const first = await deleteInBatches(full, () => 0, budget);
    const second = await deleteInBatches(full, () => 0, budget);
    expect([first.statements, first.finished, second.statements]).toEqual([900, false, 0]);
    // A budget of one more query is one more batch, and the default is the same 900.
    expect((await deleteInBatches(full, () => 0, { left: 901 })).statements).toBe(901);
    expect((await deleteInBatches(full, () => 0)).statements).toBe(900);
  });
});

describe("the clean-up of expired idempotency records", () => {
  it("deletes 100,000 in statements of 1,000 rows, 6 a run while each takes 10 s, until all are gone", async () => {
    const pet = await createPet(await createApiKey("clean-up"), { name: "Kept", categoryId: 1 });
    const now = Date.now();
    await insertRecords(pet.id, 100_000, now, DAY_MS, "expired-");
    await insertRecords(pet.id, 10, now, DAY_MS - 60_000, "fresh-");
    const { d1, changes } = watchChanges(petsDatabase());
    const db = createDatabase(d1);
    // A clock that goes 10 s on at each reading: a run stops after its budget of 60 s.
    let clock = now;
    const tick = () => {
      clock += 10_000;
      return clock;
    };
    const runs = [];
    for (let run = 0; run < 100; run++) {
      const outcome = await deleteExpiredIdempotencyKeys(db, now, tick);
      runs.push(outcome);
      if (outcome.finished) break;
    }
    expect(await countRecords("expired-")).toBe(0);
    expect(await countRecords("fresh-")).toBe(10);
    expect(runs.reduce((sum, { deleted }) => sum + deleted, 0)).toBe(100_000);
    // 6 batches of 1,000 a run (the 7th would start past 60 s): 16 runs of 6,000, then 4,000 and an empty batch.
    expect(runs.map(({ statements }) => statements)).toEqual([...Array(16).fill(BUDGET_MS / 10_000), 5]);
    expect(Math.max(...changes)).toBe(BATCH_ROWS);
    expect(changes.filter((rows) => rows === BATCH_ROWS)).toHaveLength(100);
    expect(changes.at(-1)).toBe(0);
  });

  it("runs from the hourly cron with the clock it was given, the deprecated-call records too", async () => {
    const pet = await createPet(await createApiKey("clean-up cron"), { name: "Kept too", categoryId: 1 });
    const now = Date.now();
    await insertRecords(pet.id, 2_500, now, DAY_MS, "cron-expired-");
    await env.DB.prepare(
      `insert into deprecated_calls (api_key_hash, key_label, operation, day, calls, last_call_at)
       with recursive n(i) as (select 1 union all select i + 1 from n where i < 2500)
       select 'key-' || i, 'label', 'getPet', '2020-01-01', 1, 0 from n`,
    ).run();
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "17 * * * *" }), env);
    expect(await countRecords("cron-expired-")).toBe(0);
    const left = await env.DB.prepare(
      "select count(*) as count from deprecated_calls where day = '2020-01-01'",
    ).first();
    expect(left).toEqual({ count: 0 });
  });
});
