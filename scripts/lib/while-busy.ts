// The local stores share their SQLite files with a running `npm run dev` (another workerd,
// on the same directory): a call that meets the other's lock fails at once with SQLite's
// SQLITE_BUSY, which workerd reports for KV as "internal error; reference = …". Every call
// the scripts make on a store is safe to repeat (a read, or a put or delete of the same
// value), so a busy one is made again, a few times, after a short wait.

/** What a call that met the other runtime's lock fails with. */
const BUSY = /internal error; reference = |SQLITE_BUSY|database is locked/;

/** Tries in all: the waits between them add up to 1.5 s (100, 200, 400 and 800 ms). */
export const BUSY_ATTEMPTS = 5;
const FIRST_WAIT_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `call`'s result, made again while it fails as busy, at most BUSY_ATTEMPTS times in all. */
export const whileBusy = async <T>(call: () => Promise<T>, wait: (ms: number) => Promise<unknown> = sleep) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt === BUSY_ATTEMPTS || !BUSY.test((error as Error)?.message ?? "")) throw error;
      await wait(FIRST_WAIT_MS * 2 ** (attempt - 1));
    }
  }
};
