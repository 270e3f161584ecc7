// The API's answer to each target, recorded once, for the reference Worker to write back
// (./reference.ts): the floor under a target is a Worker that makes its binding calls and
// answers its bytes.
import { type RecordedAnswer, recordAnswer } from "./recorded";
import { send, type Target } from "./targets";

/** The API's answer to each target, by name, as the reference's ANSWERS variable holds them. */
export const recordAnswers = async <Name extends string>(targets: Record<Name, Target>, origin: string) => {
  const recorded = {} as Record<Name, RecordedAnswer>;
  for (const [name, target] of Object.entries<Target>(targets)) {
    recorded[name as Name] = await recordAnswer(await send(target), origin);
  }
  return recorded;
};

/**
 * A reference that does not write back the answer it was given would make the floor look
 * cheap: its answer is checked first, against the recording (headers in the order Node's
 * fetch lists them, each server's own origin written alike).
 */
export const checkReplay = async (target: Target, recorded: RecordedAnswer, origin: string) => {
  const replayed = await recordAnswer(await send(target), origin);
  if (JSON.stringify(replayed) !== JSON.stringify(recorded)) {
    throw new Error(`${target.name} does not write back the API's answer: ${JSON.stringify(replayed).slice(0, 500)}`);
  }
};
