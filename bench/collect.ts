// A full garbage collection of a server's isolate, made before each load through wrangler
// dev's inspector, so that every load starts just after one rather than holding one by
// chance (bench/README.md says why, and what the collection costs each side).
import { inspect } from "./inspector";

/**
 * Requests sent to carry the collection, at most: workerd runs an inspector command only when
 * the Worker next runs, and the collection with its sweep is six commands (20 fell short).
 */
const MAX_CARRIERS = 100;

/**
 * Asks V8 for a full collection, then has it finish sweeping, and sends `carry` (one request
 * of the load's own) until both have run. V8 sweeps a collection's pages lazily, as the
 * allocations after it need them: the load after it would pay for that sweep, in proportion
 * to the heap's size, where production sweeps after a collection once in a great many
 * requests. A query of the heap's objects sweeps it all first; it asks for the instances of a
 * new object, of which there are none, so that it hands nothing back.
 */
export const collectGarbage = async (inspectorPort: string, carry: () => Promise<void>) => {
  const session = await inspect(inspectorPort);
  try {
    let done = false;
    const collected = (async () => {
      await session.send("HeapProfiler.collectGarbage");
      await session.send("Runtime.enable");
      const created = session.events.find(({ method }) => method === "Runtime.executionContextCreated");
      const contextId = (created?.params.context as { id: number } | undefined)?.id;
      const { result } = await session.send<{ result: { objectId: string } }>("Runtime.evaluate", {
        expression: "({})",
        contextId,
        objectGroup: "bench",
      });
      await session.send("Runtime.queryObjects", { prototypeObjectId: result.objectId, objectGroup: "bench" });
      await session.send("Runtime.releaseObjectGroup", { objectGroup: "bench" });
      await session.send("Runtime.disable");
      done = true;
    })();
    collected.catch(() => {});
    for (let carriers = 1; carriers <= MAX_CARRIERS; carriers++) {
      await carry();
      // The commands' answers come over the socket once the isolate has run them.
      await Promise.race([collected, new Promise((resolve) => setTimeout(resolve, 50))]);
      if (done) return;
    }
    throw new Error(`the inspector did not collect within ${MAX_CARRIERS} requests`);
  } finally {
    session.close();
  }
};
