// What an operation is: a plain function of what its door hands it (the D1 session, the
// caller as admitted, the checked input and the clock), returning its value or a typed
// refusal. Every door (HTTP in src/rest/, the MCP tools in src/mcp/) calls the same
// function with the same checked input; none of them runs another, and no operation knows
// which door called it.
import type { SegmentSessions } from "../db/segment-sessions";
import type { SegmentsEnv } from "../db/segments";
import { hasScope, type Scope } from "../keys/api-key";
import type { AdmittedKey } from "../keys/verify";
import { classifyD1Error, logDependencyFault } from "../lib/faults";
import type { CursorSecrets } from "./cursor";
import { Refusal, unavailable } from "./refusal";

/** The settings and stores an operation reads beyond its session. */
export type OperationEnv = CursorSecrets & SegmentsEnv & { GET_PET_BROWNOUTS?: string };

/** What a door hands an operation, besides its checked input. */
export type OperationContext = {
  /** The request's D1 sessions, one per segment it touches (src/db/segment-sessions.ts). */
  db: SegmentSessions;
  /** The caller, as its door admitted it. */
  caller: AdmittedKey;
  /** The clock, read once for the call. */
  now: number;
  env: OperationEnv;
  /** Work that goes on after the answer (the platform's waitUntil). */
  waitUntil: (work: Promise<unknown>) => void;
  /** The request's id, for the fault lines. */
  requestId: string;
};

export type Operation<Input, Value> = {
  /** What the caller's key must allow; checked first, before its door checks the input too. */
  readonly scope: Scope;
  run(context: OperationContext, input: Input): Promise<Value | Refusal>;
};

/** The refusal of a caller whose key lacks `scope`, if it does. */
export const scopeRefusal = (caller: AdmittedKey, scope: Scope): Refusal | undefined =>
  hasScope(caller, scope)
    ? undefined
    : new Refusal("forbidden", `This API key does not have the '${scope}' scope, which this operation needs.`);

/**
 * An operation of `scope` doing `work`. What `work` throws as a Refusal is its refusal; a
 * transient D1 fault that the session's retries did not overcome is 503 (with `onD1Fault`'s
 * advice for its input), logged once; anything else is a fault for its door's error handler.
 */
export const operation = <Input, Value>(
  scope: Scope,
  work: (context: OperationContext, input: Input) => Promise<Value>,
  onD1Fault: (input: Input) => { advice: string; outcome: string } = () => ({ advice: "", outcome: "503" }),
): Operation<Input, Value> => ({
  scope,
  async run(context, input) {
    const refused = scopeRefusal(context.caller, scope);
    if (refused) return refused;
    try {
      return await work(context, input);
    } catch (error) {
      if (error instanceof Refusal) return error;
      if (!classifyD1Error(error)) throw error;
      const { advice, outcome } = onD1Fault(input);
      logDependencyFault({ requestId: context.requestId, d1Retries: context.db.retries }, "D1", error, outcome);
      return unavailable("The database", advice);
    }
  },
});
