import { sql } from "drizzle-orm";
import { createDatabase } from "../db/client";
import { apiKeyLastUsed } from "../db/schema";
import { BoundedCache } from "../lib/bounded-cache";
import { DAY_MS, utcDay } from "../lib/dates";
import { type FaultContext, logDependencyFault, withDeadline } from "../lib/faults";

// Which keys are still used, for `npm run key:list`: each key's last day of use, written
// in the background (waitUntil) at most once per key, isolate and UTC day, so that no answer waits
// for it and a busy key costs one small write a day per isolate, not one per request.

const WRITE_DEADLINE_MS = 5_000;
/** After a failed write, this isolate records no use for this long: a D1 outage must not cost a write per request. */
const PAUSE_AFTER_FAILURE_MS = 60_000;

/** The UTC day (days since the epoch) whose use of each key this isolate has written, or is writing. */
const recordedDay = new BoundedCache<string, number>({ share: "lastUsedDays" });
let pausedUntil = 0;

/** Where a use is written: the control database, the platform's waitUntil, and the request for a fault's log line. */
export type KeyUseStore = { DB: D1Database; waitUntil: (work: Promise<unknown>) => void; faults: () => FaultContext };

/** Whether this isolate has still to write the key's use of today (and is not pausing after a failed write). */
export const keyUseUnrecorded = (hash: string, now: number) =>
  recordedDay.get(hash) !== Math.floor(now / DAY_MS) && now >= pausedUntil;

/** Writes the key's use of today in the background: for a use that keyUseUnrecorded says is not written yet. */
export const recordKeyUse = (store: KeyUseStore, hash: string, now: number) => {
  recordedDay.set(hash, Math.floor(now / DAY_MS));
  const write = createDatabase(store.DB)
    .insert(apiKeyLastUsed)
    .values({ apiKeyHash: hash, day: utcDay(now) })
    .onConflictDoUpdate({
      target: apiKeyLastUsed.apiKeyHash,
      set: { day: sql`max(${apiKeyLastUsed.day}, excluded.day)` },
    })
    .run();
  store.waitUntil(
    withDeadline(write, WRITE_DEADLINE_MS, "D1").catch((error) => {
      recordedDay.delete(hash);
      pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
      logDependencyFault(store.faults(), "D1", error, "the key's last use was not recorded; retried after a pause");
    }),
  );
};
