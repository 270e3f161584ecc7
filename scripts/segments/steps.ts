// The steps of `npm run segment:open` (./open.ts), from where the last run stopped: each can
// run again with no further effect, so a run that failed at one is finished by running again.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { firstIdOf, segmentBinding } from "../../src/db/segments";
import type { Target } from "../lib/target";
import type { Cloudflare } from "./cloudflare";
import {
  databaseBlocks,
  listedSegments,
  localDatabaseId,
  segmentDatabaseName,
  withListedSegments,
  withSegmentDatabase,
} from "./layout";
import { closeSegmentStatements, startSegmentStatements } from "./statements";
import type { SegmentStores } from "./stores";

/** A step: what it does, and the work, which says whether the stores must start again (the configuration changed). */
export type Step = { title: string; run: () => Promise<boolean | undefined> };

/** `stores()`: the stores as they are now (they start again when the configuration changes). */
type Plan = {
  target: Target;
  config: string;
  listed: string[];
  text: string;
  stores: () => SegmentStores;
  cloudflare: Cloudflare;
};

const ROOT_CONFIG = path.resolve(import.meta.dirname, "../..", "wrangler.toml");

const editConfig = (config: string, edit: (text: string) => string) =>
  writeFileSync(config, edit(readFileSync(config, "utf8")));

/** The remote database named `name`: found, or created (wrangler prints its id in the configuration it suggests). */
const remoteDatabase = ({ target: { env }, config, cloudflare: { wrangler } }: Plan, name: string) => {
  const existing = (
    JSON.parse(wrangler(["d1", "list", "--json", "--config", config])) as { name: string; uuid: string }[]
  ).find((database) => database.name === name);
  if (existing) return existing.uuid;
  const said = wrangler(["d1", "create", name, "--config", config, ...(env ? ["--env", env] : [])]);
  const id = /database_id"?\s*[=:]\s*"([0-9a-f-]{36})"/.exec(said)?.[1];
  if (!id) throw new Error(`wrangler d1 create ${name} printed no database id:\n${said}`);
  return id;
};

/** Deploys the configuration: remotely the environment's deploy; locally nothing, as `wrangler dev` reads the file again itself. */
const deploy = ({ target, config, cloudflare }: Plan): Step => ({
  title: target.remote
    ? `deploy ${target.env} (npm run deploy:${target.env})`
    : "deploy (none locally: start npm run dev again to serve the new segment)",
  run: async () => {
    if (target.remote) cloudflare.deploy(target.env ?? "", config);
  },
});

/** Closes segment `position`: from then on it refuses new pets. */
const close = ({ listed, stores }: Plan, position: number): Step => ({
  title: `close ${listed[position] ?? segmentBinding(position)}`,
  run: async () => {
    await stores().run(segmentBinding(position), closeSegmentStatements(position, Date.now()));
  },
});

/** The steps left: from an unfinished run, its deploy and the closing; else the next segment's every step. */
export const planSteps = async (plan: Plan): Promise<Step[]> => {
  const { target, config, listed, text, stores } = plan;
  const count = listed.length;
  if (count >= 2) {
    const [row] = await stores().query<{ closed_at: number | null }>(
      listed[count - 2] ?? "",
      "select closed_at from segment",
    );
    if (!row?.closed_at) return [deploy(plan), close(plan, count - 2)];
  }
  const position = count;
  const binding = segmentBinding(position);
  const first = databaseBlocks(text, target.env).find((block) => block.binding === "DB");
  if (!first) throw new Error(`${config} binds no DB for ${target.env ?? "development"}.`);
  const name = segmentDatabaseName(first.name, position);
  let id = databaseBlocks(text, target.env).find((block) => block.binding === binding)?.id;
  return [
    {
      title: `create the database ${name}`,
      run: async () => {
        id ??= target.remote ? remoteDatabase(plan, name) : localDatabaseId(first.id, position);
      },
    },
    {
      title: `bind it as ${binding} in ${path.basename(config)}`,
      run: async () => {
        editConfig(config, (now) => withSegmentDatabase(now, target.env, position, { name, id: id ?? "" }));
        return true;
      },
    },
    {
      title: `apply the migrations to ${binding}`,
      run: () =>
        stores()
          .migrate(binding)
          .then(() => undefined),
    },
    {
      title: `make ${firstIdOf(position)} the next id of ${binding}`,
      run: () =>
        stores()
          .run(binding, startSegmentStatements(position))
          .then(() => undefined),
    },
    ...(target.remote
      ? [
          {
            title: `turn on read replication for ${name}`,
            run: async () => {
              const args = ["--env", target.env ?? "", "--binding", binding, "--config", config];
              console.error(await plan.cloudflare.replicate(args));
              return undefined;
            },
          },
        ]
      : []),
    {
      title: `list ${binding} in PET_SEGMENTS`,
      run: async () => {
        editConfig(config, (now) => {
          const segments = listedSegments(now, target.env);
          return segments.includes(binding) ? now : withListedSegments(now, target.env, [...segments, binding]);
        });
        // The Worker's types follow wrangler.toml (npm run typecheck checks them).
        if (path.resolve(config) === ROOT_CONFIG) {
          const typed = spawnSync("npm", ["run", "--silent", "types"], { encoding: "utf8" });
          if (typed.status !== 0) throw new Error(`npm run types failed:\n${typed.stdout}${typed.stderr}`);
        }
        return undefined;
      },
    },
    deploy(plan),
    close(plan, position - 1),
  ];
};
