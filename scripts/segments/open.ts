// `npm run segment:open [-- --env staging|production --remote] [--persist-to DIR] [--config FILE]`
//
// Opens the next segment of pets (src/db/segments.ts, docs/operations.md "Segments"): creates
// its database, adds its binding to the environment's configuration, applies the migrations,
// makes the first id of its range the next one, lists it in PET_SEGMENTS, deploys, and only
// then closes the segment before it, which from then on refuses new pets (the Workers that
// still write there create in the new one instead). Everything is checked before the first
// write: the environment, the credentials, that no run is under way and none was left half
// done, that every segment's migrations are current. A run that fails at a step says which,
// and what state each segment is in; the same command run again finishes what was left.
import { closeSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { MAX_SEGMENTS, segmentBinding } from "../../src/db/segments";
import { excerpt } from "../../src/lib/display-text";
import { type Outcome, runAsCommand } from "../lib/command";
import { nearest, parseOptions } from "../lib/options";
import { DEPLOYED_ENVIRONMENTS, type Target } from "../lib/target";
import { type Cloudflare, cloudflare as theCloudflare } from "./cloudflare";
import { databaseBlocks, listedSegments } from "./layout";
import { planSteps, type Step } from "./steps";
import { openSegmentStores, type SegmentStores } from "./stores";

const USAGE = "Usage: npm run segment:open [-- --env staging|production --remote] [--persist-to DIR] [--config FILE]";

type Options = { target: Target; config: string };

/** The options, every one checked: a wrong flag or value is named, with what is allowed. */
export const parseOpenOptions = (args: string[]): Options => {
  const { values } = parseOptions(
    {
      args,
      options: {
        env: { type: "string" },
        remote: { type: "boolean", default: false },
        "persist-to": { type: "string" },
        config: { type: "string" },
      },
    },
    USAGE,
  );
  const { env, remote = false, "persist-to": persistTo, config = "wrangler.toml" } = values;
  if (env !== undefined && !DEPLOYED_ENVIRONMENTS.includes(env)) {
    const near = nearest(env, DEPLOYED_ENVIRONMENTS);
    throw new Error(
      `--env is "${excerpt(env)}": ${near ? `did you mean ${near}? It` : "it"} must be ${DEPLOYED_ENVIRONMENTS.join(" or ")}.\n${USAGE}`,
    );
  }
  if (env !== undefined && !remote)
    throw new Error(`--env ${env} goes with --remote: a deployed environment's segments are remote.\n${USAGE}`);
  if (remote && env === undefined) throw new Error(`--remote needs --env staging or --env production.\n${USAGE}`);
  if (remote && persistTo) throw new Error(`--persist-to names local state; it cannot go with --remote.\n${USAGE}`);
  return { target: { env, remote, persistTo }, config };
};

/** A run at a time for one state or environment: a lock file, made only if none is there. */
const lockFor = ({ target, config }: Options) => {
  const state = target.remote
    ? path.dirname(path.resolve(config))
    : path.resolve(target.persistTo ?? ".wrangler/state");
  const file = path.join(state, `.segment-open-${target.env ?? "development"}.lock`);
  try {
    closeSync(openSync(file, "wx"));
  } catch {
    throw new Error(
      `Another npm run segment:open is under way for ${target.env ?? "development"} (${file} exists): wait for it; if none is running, delete that file and run again. Nothing was written.`,
    );
  }
  return () => rmSync(file, { force: true });
};

/** What each listed segment is now, for a message: open, closed, or not yet started. */
const describeSegments = async (stores: SegmentStores, bindings: string[]) => {
  const states = await Promise.all(
    bindings.map(async (binding) => {
      try {
        const [row] = await stores.query<{ closed_at: number | null }>(binding, "select closed_at from segment");
        return `${binding} ${row?.closed_at ? "closed" : "open"}`;
      } catch {
        return `${binding} not started`;
      }
    }),
  );
  return states.join(", ");
};

/** Checks the credentials of a remote run (before anything is written). */
const checkCredentials = ({ wrangler }: Cloudflare) => {
  const said = wrangler(["whoami"]);
  if (/not authenticated|not logged in/i.test(said)) {
    throw new Error(
      "wrangler has no credentials: run `npx wrangler login`, or set CLOUDFLARE_API_TOKEN. Nothing was written.",
    );
  }
};

/** Runs `npm run segment:open -- ...args`, remotely through `cloudflare`: what it says. */
export const openNextSegment = async (args: string[], cloudflare: Cloudflare = theCloudflare): Promise<Outcome> => {
  const options = parseOpenOptions(args);
  const { target, config } = options;
  const text = readFileSync(config, "utf8");
  const listed = listedSegments(text, target.env);
  const bound = databaseBlocks(text, target.env).map(({ binding }) => binding);
  listed.forEach((binding, position) => {
    if (binding !== segmentBinding(position) || !bound.includes(binding)) {
      throw new Error(
        `PET_SEGMENTS in ${config} must list DB, PETS_1 ... in order, each bound: it lists ${listed.join(" ")}. Nothing was written.`,
      );
    }
  });
  if (listed.length >= MAX_SEGMENTS)
    throw new Error(`Every one of the ${MAX_SEGMENTS} segments is listed. Nothing was written.`);
  if (target.remote) checkCredentials(cloudflare);
  const release = lockFor(options);
  const done: string[] = [];
  let stores = await openSegmentStores(target, config, cloudflare);
  try {
    for (const binding of listed) {
      const pending = await stores.pendingMigrations(binding);
      if (pending.length > 0) {
        throw new Error(
          `${binding} has not applied ${pending.join(", ")}: apply the migrations first (docs/operations.md, "Migrations"). Nothing was written.`,
        );
      }
    }
    const steps: Step[] = await planSteps({ target, config, listed, text, stores: () => stores, cloudflare });
    for (const [index, step] of steps.entries()) {
      try {
        const reopen = await step.run();
        if (reopen) {
          await stores.close();
          stores = await openSegmentStores(target, config, cloudflare);
        }
      } catch (error) {
        const now = listedSegments(readFileSync(config, "utf8"), target.env);
        throw new Error(
          `Step ${index + 1} of ${steps.length}, ${step.title}, failed: ${(error as Error).message.split("\n")[0]}\nDone before it: ${done.join("; ") || "nothing"}.\nSegments now: ${await describeSegments(stores, now)}.\nRun the same command again to finish.`,
        );
      }
      done.push(step.title);
      console.error(`[segment:open] ${index + 1}/${steps.length} ${step.title}: done`);
    }
    const now = listedSegments(readFileSync(config, "utf8"), target.env);
    return { said: `Segments of ${target.env ?? "development"}: ${await describeSegments(stores, now)}.`, printed: [] };
  } finally {
    await stores.close();
    release();
  }
};

runAsCommand(import.meta.url, openNextSegment);
