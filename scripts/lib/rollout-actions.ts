// What production's rollout (./rollout.ts) does to the world: each Worker's `wrangler versions
// deploy`, the smoke test through the API with an override for each new version, and waiting;
// through wrangler and the smoke test by default, through stand-ins in test/node/scripts/deploy.test.ts.
import { runSmokeTest, type SmokeTarget, versionOverride } from "../smoke";
import type { RolloutActions } from "./rollout";
import { runWrangler } from "./wrangler";

/** A deploy's step, said as it begins. */
export const step = (title: string) => console.log(`\n[deploy] ${title}`);

/**
 * What a production rollout does, through `run` (wrangler) and `smokeTest`: each Worker's
 * `wrangler versions deploy`, and the smoke test through the API with a version override for
 * each new version (the API forwards the sign-in's paths with the header; its token checks,
 * over RPC, reach the sign-in Worker's serving split).
 */
export const rolloutActions = (
  env: string,
  smoke: SmokeTarget,
  { run = runWrangler, smokeTest = runSmokeTest, wait = sleep }: Partial<RolloutTools> = {},
): RolloutActions => ({
  deploy: ({ worker }, versionSpecs, message) => {
    step(`${worker}, ${message}: wrangler versions deploy ${versionSpecs.join(" ")}`);
    run(["versions", "deploy", ...versionSpecs, "--config", worker, "--env", env, "--message", message, "--yes"]);
  },
  smokeTest: async (workers) => {
    const overrides = await Promise.all(
      workers.map(({ worker, candidate }) => versionOverride(env, candidate, worker)),
    );
    step(`smoke test of ${workers.map(({ candidate }) => candidate).join(" and ")} against ${smoke.baseUrl}`);
    return smokeTest({ ...smoke, versionOverride: overrides.join(", ") });
  },
  wait: (ms) => {
    step(`serving for ${ms / 60_000} min before the smoke test and the next step`);
    return wait(ms);
  },
});

type RolloutTools = {
  run: (args: string[]) => void;
  smokeTest: typeof runSmokeTest;
  wait: (ms: number) => Promise<void>;
};
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
