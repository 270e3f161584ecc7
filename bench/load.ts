// One load of a target on one server: a full collection first (./collect.ts), counted on its
// own; N requests uncounted, which make hot again what the collection threw away; then N
// requests over a few connections, counted per answered request.
import autocannon from "autocannon";
import { dumpInstructions, helperThreadsCompiling, instrument, zeroCounts } from "./callgrind";
import { collectGarbage } from "./collect";
import type { Target } from "./targets";

/** A server as the bench counts it: its workerd under callgrind, and wrangler dev's inspector. */
export type CountedServer = { pid: string; inspectorPort: string };
type LoadOptions = { callgrindDir: string; requests: number; connections: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `target` N requests, all of which must be answered with a 2xx. */
const send = async ({ name, url, method = "GET", headers, body }: Target, requests: number, connections: number) => {
  const result = await autocannon({ url, method, headers, body, connections, amount: requests });
  const failures = result.errors + result.non2xx;
  if (failures > 0) throw new Error(`${name}: ${failures} of ${requests} requests failed`);
  return result["2xx"];
};

/**
 * N requests of `target`, uncounted: callgrind's counting off, so that they run several times
 * faster. V8 compiles what they make hot, so that a counted load after them runs the code a
 * warm isolate runs.
 */
export const warm = async (target: Target, { pid }: CountedServer, requests: number, connections: number) => {
  instrument(pid, false);
  try {
    await send(target, requests, connections);
  } finally {
    instrument(pid, true);
  }
};

/**
 * The instructions of one load of `target` on `server`, per answered request, and those of the
 * collection before it (with the request that carried it).
 */
export const load = async (
  target: Target,
  server: CountedServer,
  { callgrindDir, requests, connections }: LoadOptions,
) => {
  const { name, url, method = "GET", headers, body, settleMs } = target;
  const { pid, inspectorPort } = server;
  const carry = async () => {
    const response = await fetch(url, { method, headers, body });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${name}: ${response.status} to the request that carried the collection`);
  };
  zeroCounts(pid);
  await collectGarbage(inspectorPort, carry);
  const collection = dumpInstructions(callgrindDir, pid);
  // After the collection V8 compiles again the functions that every request runs (Hono's
  // dispatch among them; `npm run bench:tiering` names them): the same load, uncounted, first.
  await warm(target, server, requests, connections);
  zeroCounts(pid);
  const answered = await send(target, requests, connections);
  await sleep(settleMs);
  const instructions = dumpInstructions(callgrindDir, pid);
  const compiling = helperThreadsCompiling(callgrindDir, pid);
  if (compiling.length > 0)
    throw new Error(
      `${name}: V8 compiled on a thread other than the Worker's (${compiling[0]}): were its flags given?`,
    );
  return { perRequest: instructions / answered, collection };
};
