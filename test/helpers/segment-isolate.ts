// The core operations of an isolate of their own, called directly over segments (the tests of
// test/worker/segments/): each start evaluates the Worker's modules afresh, as a new isolate
// would, with nothing cached of the storage that a test empties or lays out.
import { createExecutionContext } from "cloudflare:test";
import type { OperationContext, OperationEnv } from "../../src/core/operation";
import type { Refusal } from "../../src/core/refusal";
import { resetOwnModules } from "./reset-own-modules";

/** The clock the operations are handed, unless a test hands another. */
export const DAY = Date.UTC(2027, 0, 1);

export const startIsolate = async () => {
  resetOwnModules();
  const modules = {
    ...(await import("../../src/core/create-pet")),
    ...(await import("../../src/core/get-pet")),
    ...(await import("../../src/core/list-pets")),
    ...(await import("../../src/core/refusal")),
    ...(await import("../../src/db/segment-sessions")),
  };
  /** What a door hands an operation: a caller with both scopes, the clock `now`. */
  const contextOf = (env: OperationEnv, now = DAY): OperationContext => {
    const execution = createExecutionContext();
    return {
      db: modules.openSegmentSessions(env),
      caller: {
        label: "segments",
        createdAt: "2027-01-01T00:00:00Z",
        hash: "segments-caller",
        scopes: ["read", "write"],
      },
      now,
      env,
      waitUntil: (work) => execution.waitUntil(work),
      requestId: "segments-test",
    };
  };
  /** The operation's value; throws, naming the refusal, on one. */
  const accepted = <Value>(outcome: Value | Refusal): Value => {
    if (outcome instanceof modules.Refusal) throw new Error(`refused: ${outcome.code}: ${outcome.message}`);
    return outcome as Value;
  };
  return { ...modules, contextOf, accepted };
};

export type SegmentIsolate = Awaited<ReturnType<typeof startIsolate>>;
