// A full garbage collection of a server's isolate, made before each load through wrangler
// dev's inspector, so that every load starts just after one rather than holding one by
// chance (bench/README.md says why, and what the collection costs each side).
import { inspect } from "./inspector";

/** Requests sent to carry the collection, at most: workerd runs an inspector command only when the Worker next runs. */
const MAX_CARRIERS = 20;

/** Asks V8 for a full collection and sends `carry` (one request of the load's own) until it has run. */
export const collectGarbage = async (inspectorPort: string, carry: () => Promise<void>) => {
  const session = await inspect(inspectorPort);
  try {
    let done = false;
    const collected = session.send("HeapProfiler.collectGarbage").then(() => {
      done = true;
    });
    for (let carriers = 1; carriers <= MAX_CARRIERS; carriers++) {
      await carry();
      // The command's answer comes over the socket once the isolate has run it.
      await Promise.race([collected, new Promise((resolve) => setTimeout(resolve, 50))]);
      if (done) return;
    }
    throw new Error(`the inspector did not collect within ${MAX_CARRIERS} requests`);
  } finally {
    session.close();
  }
};
