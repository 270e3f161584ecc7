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

/** A Worker's two versions in a rollout: the one serving now, and the new one. */
export type WorkerVersions = { worker: string; stable: string; candidate: string };

/** The Workers that roll out together, in the order each step deploys them (the sign-in Worker, then the API that calls it). */
export type Rollout = { workers: WorkerVersions[]; steps: number[]; soakMs: number };

/** What a rollout does to the world: `wrangler versions deploy` of one Worker, the smoke test of the new versions, waiting. */
export type RolloutActions = {
  deploy: (worker: WorkerVersions, versionSpecs: string[], message: string) => void;
  smokeTest: (workers: WorkerVersions[]) => Promise<boolean>;
  wait: (ms: number) => Promise<void>;
};

/**
 * Moves traffic from each Worker's stable version to its candidate, together: at 0% first,
 * where only the smoke test's version overrides reach them, then through `steps`. A failed
 * smoke test gives all traffic back to every stable version (the API's first) and throws.
 */
export const rollOut = async ({ workers, steps, soakMs }: Rollout, actions: RolloutActions) => {
  const deployAll = (specs: (versions: WorkerVersions) => string[], message: string, order = workers) => {
    for (const versions of order) actions.deploy(versions, specs(versions), message);
  };
  const checked = async (share: number) => {
    if (await actions.smokeTest(workers)) return;
    const reversed = workers.toReversed();
    deployAll(({ stable }) => [`${stable}@100%`], `rollback: the smoke test failed at ${share}%`, reversed);
    throw new Error(`The smoke test failed at ${share}%: the previous versions serve all traffic again.`);
  };
  deployAll(({ stable, candidate }) => [`${stable}@100%`, `${candidate}@0%`], "at 0%, for its smoke test");
  await checked(0);
  for (const share of steps) {
    if (share === 100) {
      deployAll(({ candidate }) => [`${candidate}@100%`], "at 100%");
      return;
    }
    deployAll(({ stable, candidate }) => [`${candidate}@${share}%`, `${stable}@${100 - share}%`], `at ${share}%`);
    await actions.wait(soakMs);
    await checked(share);
  }
};
