import { createScheduledController } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../../src/index";
import { closeSegment, freshSegments, segmentDatabases, segmentEnv } from "../../helpers/segments";

// The hourly clean-up of idempotency records over segments: the last two, and each closed
// within 48 hours (a record is kept 24 hours; a closed segment takes none after its closing).

const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2027, 0, 10);

/** An expired record (and its pet) in segment `position`. */
const expiredRecord = async (position: number) => {
  const database = segmentDatabases[position] as D1Database;
  await database.batch([
    database.prepare("insert into pets (name, category_id, status) values ('Kept', 1, 'sold')"),
    database
      .prepare(
        "insert into idempotency_keys (api_key_hash, idempotency_key, request_hash, pet_id, created_at) values ('clean-up', 'expired', 'r', last_insert_rowid(), ?)",
      )
      .bind(NOW - 25 * HOUR),
  ]);
};
const records = () =>
  Promise.all(
    segmentDatabases.map(
      async (database) =>
        (await database.prepare("select count(*) as n from idempotency_keys").first<{ n: number }>())?.n,
    ),
  );
const cleanUp = () =>
  worker.scheduled(createScheduledController({ scheduledTime: NOW, cron: "17 * * * *" }), segmentEnv(3));

describe("the hourly clean-up with three segments", () => {
  beforeAll(freshSegments);

  it("deletes expired records in a segment closed within 48 hours, and in the open one", async () => {
    await expiredRecord(0);
    await closeSegment(0, NOW - 47 * HOUR);
    await expiredRecord(1);
    expect(await records()).toEqual([1, 1, 0]);
    await cleanUp();
    expect(await records()).toEqual([0, 0, 0]);
  });

  it("does not look into a segment closed before that", async () => {
    await freshSegments();
    await expiredRecord(0);
    await closeSegment(0, NOW - 49 * HOUR);
    await expiredRecord(1);
    await closeSegment(1, NOW - 49 * HOUR);
    await expiredRecord(2);
    await cleanUp();
    // Segment 0 is before the last two and closed 49 hours ago: the runs since have emptied it.
    expect(await records()).toEqual([1, 0, 0]);
  });
});
