// Production's gradual rollout: which shares of traffic a new version gets in turn, and
// the order of deploys, smoke tests and waits that moves it there or back
// (scripts/deploy.ts hands it wrangler and the smoke test; test/node/scripts/deploy.test.ts, stand-ins).
import { MAX_DURATION, parseDuration } from "./duration";

/** The shares of traffic, in percent, that a new version gets in turn: rising, ending at 100. */
export const parseRolloutSteps = (text: string): number[] => {
  const steps = text.split(",").map((share) => Number(share.trim()));
  const rising = steps.every((share, i) => Number.isInteger(share) && share > (steps[i - 1] ?? 0));
  if (!rising || steps.at(-1) !== 100) {
    throw new Error(`ROLLOUT_STEPS must be rising whole percentages ending at 100, such as 10,50,100, not '${text}'.`);
  }
  return steps;
};

/** How long each share serves before its smoke test: at most MAX_DURATION.soak, which a timer holds. */
export const parseRolloutSoak = (text: string): number => parseDuration(text, "ROLLOUT_SOAK", MAX_DURATION.soak);

/** Production's rollout unless ROLLOUT_STEPS and ROLLOUT_SOAK say otherwise. */
export const DEFAULT_ROLLOUT = { steps: "10,100", soak: "10m" };

export type Rollout = { stable: string; candidate: string; steps: number[]; soakMs: number };

/** What a rollout does to the world: `wrangler versions deploy`, the smoke test of a version, waiting. */
export type RolloutActions = {
  deploy: (versionSpecs: string[], message: string) => void;
  smokeTest: (versionId: string) => Promise<boolean>;
  wait: (ms: number) => Promise<void>;
};

/**
 * Moves traffic from `stable` to `candidate`: at 0% first, where only the smoke test's
 * version override reaches it, then through `steps`. A failed smoke test gives all
 * traffic back to `stable` and throws.
 */
export const rollOut = async ({ stable, candidate, steps, soakMs }: Rollout, actions: RolloutActions) => {
  const checked = async (share: number) => {
    if (await actions.smokeTest(candidate)) return;
    actions.deploy([`${stable}@100%`], `rollback: the smoke test failed against ${candidate} at ${share}%`);
    throw new Error(`The smoke test failed against ${candidate} at ${share}%: ${stable} serves all traffic again.`);
  };
  actions.deploy([`${stable}@100%`, `${candidate}@0%`], `${candidate} at 0%, for its smoke test`);
  await checked(0);
  for (const share of steps) {
    if (share === 100) {
      actions.deploy([`${candidate}@100%`], `${candidate} at 100%`);
      return;
    }
    actions.deploy([`${candidate}@${share}%`, `${stable}@${100 - share}%`], `${candidate} at ${share}%`);
    await actions.wait(soakMs);
    await checked(share);
  }
};
