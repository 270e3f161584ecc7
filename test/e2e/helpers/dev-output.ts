import type { DevServer } from "../../../scripts/lib/dev-server";
import { API_KEY_PATTERN } from "../../../src/keys/api-key";

// What a scratch `npm run dev` prints that the tests read: its development key, and the
// causes of the faults it logged.

/** The development key that `npm run dev` printed (scripts/dev.ts prints it alone on its line). */
export const printedDevKey = (started: DevServer): string => {
  const printed = started
    .output()
    .split("\n")
    .map((line) => line.trim())
    .find((line) => API_KEY_PATTERN.test(line));
  if (!printed) throw new Error(`npm run dev printed no key:\n${started.output()}`);
  return printed;
};

/** The causes of the warn lines (src/lib/faults.ts) of `dependency`'s faults that the server has printed. */
export const faultCauses = (server: DevServer, dependency: string) =>
  [...server.output().matchAll(new RegExp(`"dependency":"${dependency}","cause":"([^"]*)"`, "g"))].map(
    ([, cause]) => cause,
  );

/**
 * What the local D1 says with its file locked, as test/worker/faults/faults-d1.test.ts injects
 * it: a read cannot get its session's commit token, a write finds the database busy.
 */
export const LOCKED_D1 =
  /^(?:Failed to get session commit token: internal error; reference = \w+|database is locked: SQLITE_BUSY)$/;
