// A full garbage collection of a server's isolate, made before each load through wrangler
// dev's inspector, so that every load starts just after one rather than holding one by
// chance (bench/README.md says why, and what the collection costs each side).
import { inspect } from "./inspector";

/**
 * Requests sent to carry the collection with no command of it answered, at most: workerd runs
 * an inspector command only when the Worker next runs, and the collection with its sweep is
 * six commands, each sent once the one before has answered. A count of requests since the last
 * answer, not in all: on a loaded machine an answer can take many requests to come back (100
 * in all fell short, 2026-11-29, two short runs side by side), and a stalled inspector still
 * stops the run.
 */
const MAX_CARRIERS_WITHOUT_ANSWER = 100;

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
    let answered = 0;
    const send = async <T>(method: string, params?: Record<string, unknown>) => {
      const answer = await session.send<T>(method, params);
      answered++;
      return answer;
    };
    const collected = (async () => {
      await send("HeapProfiler.collectGarbage");
      await send("Runtime.enable");
      const created = session.events.find(({ method }) => method === "Runtime.executionContextCreated");
      const contextId = (created?.params.context as { id: number } | undefined)?.id;
      const { result } = await send<{ result: { objectId: string } }>("Runtime.evaluate", {
        expression: "({})",
        contextId,
        objectGroup: "bench",
      });
      await send("Runtime.queryObjects", { prototypeObjectId: result.objectId, objectGroup: "bench" });
      await send("Runtime.releaseObjectGroup", { objectGroup: "bench" });
      await send("Runtime.disable");
      done = true;
    })();
    collected.catch(() => {});
    let answeredBefore = 0;
    for (let carriers = 1; carriers <= MAX_CARRIERS_WITHOUT_ANSWER; carriers++) {
      await carry();
      // The commands' answers come over the socket once the isolate has run them.
      await Promise.race([collected, new Promise((resolve) => setTimeout(resolve, 50))]);
      if (done) return;
      if (answered > answeredBefore) [answeredBefore, carriers] = [answered, 0];
    }
    throw new Error(
      `the inspector answered none of the collection's commands within ${MAX_CARRIERS_WITHOUT_ANSWER} requests`,
    );
  } finally {
    session.close();
  }
};
