// One load of a target on one server: a full collection first (./collect.ts), counted on its
// own, then N requests over a few connections, counted per answered request.
import autocannon from "autocannon";
import { dumpInstructions, helperThreadsCompiling, zeroCounts } from "./callgrind";
import { collectGarbage } from "./collect";
import type { Target } from "./targets";

/** A server as the bench counts it: its workerd under callgrind, and wrangler dev's inspector. */
export type CountedServer = { pid: string; inspectorPort: string };
type LoadOptions = { callgrindDir: string; requests: number; connections: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The instructions of one load of `target` on `server`, per answered request, and those of the
 * collection before it (with the request that carried it).
 */
export const load = async (
  { name, url, method = "GET", headers, body, settleMs }: Target,
  { pid, inspectorPort }: CountedServer,
  { callgrindDir, requests, connections }: LoadOptions,
) => {
  const carry = async () => {
    const response = await fetch(url, { method, headers, body });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${name}: ${response.status} to the request that carried the collection`);
  };
  zeroCounts(pid);
  await collectGarbage(inspectorPort, carry);
  const collection = dumpInstructions(callgrindDir, pid);
  // Under callgrind a request takes many times its time, and more on a busy machine: its wait is
  // no measure here, so it is long enough that only a server that stopped answering fails it.
  const result = await autocannon({ url, method, headers, body, connections, amount: requests, timeout: 120 });
  await sleep(settleMs);
  const instructions = dumpInstructions(callgrindDir, pid);
  const failures = result.errors + result.non2xx;
  if (failures > 0) throw new Error(`${name}: ${failures} of ${requests} requests failed`);
  const compiling = helperThreadsCompiling(callgrindDir, pid);
  if (compiling.length > 0)
    throw new Error(
      `${name}: V8 compiled on a thread other than the Worker's (${compiling[0]}): were its flags given?`,
    );
  return { perRequest: instructions / result["2xx"], collection };
};
