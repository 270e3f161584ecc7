// `npm run d1:replication -- --env staging|production [--binding PETS_<n>] [--off] [--config FILE]`
//
// Turns D1 read replication on (or off) for an environment's database (DB, or the segment
// of pets bound as --binding: `npm run segment:open` turns it on for each new one), so that reads in
// a D1 session (src/db/client.ts) may go to the replica nearest the request. wrangler has
// no command for it: this is the REST API's database update, with the deploy token.
// Takes CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID from the environment, as wrangler
// does, and CLOUDFLARE_API_BASE_URL if set (wrangler's name for another API address).
// Verify with `npx wrangler d1 info <database> --env <env>`: read_replication.mode.
import { pathToFileURL } from "node:url";
import { nearest, parseOptions } from "./lib/options";
import { DEPLOYED_ENVIRONMENTS } from "./lib/target";
import { workerConfig } from "./lib/wrangler";

const DEFAULT_API = "https://api.cloudflare.com/client/v4";
const USAGE = `Usage: npm run d1:replication -- --env <${DEPLOYED_ENVIRONMENTS.join("|")}> [--binding PETS_<n>] [--off] [--config FILE]`;

/** Runs `npm run d1:replication -- ...args` with the variables of `environment`: what it reports, or why it failed. */
export const setReadReplication = async (args: string[], environment: NodeJS.ProcessEnv): Promise<string> => {
  const { values } = parseOptions(
    {
      args,
      options: {
        env: { type: "string" },
        binding: { type: "string", default: "DB" },
        // Another configuration than wrangler.toml (as `npm run segment:open --config` edits one).
        config: { type: "string", default: "wrangler.toml" },
        off: { type: "boolean", default: false },
      },
    },
    USAGE,
  );
  const { env, binding, off, config } = values;
  if (!env || !DEPLOYED_ENVIRONMENTS.includes(env)) {
    const near = env && nearest(env, DEPLOYED_ENVIRONMENTS);
    throw new Error(
      `${env ? `--env is '${env}'${near ? `: did you mean ${near}?` : ""}` : "--env is missing"}\n${USAGE}`,
    );
  }
  const { CLOUDFLARE_API_TOKEN: token, CLOUDFLARE_ACCOUNT_ID: account } = environment;
  if (!token || !account) {
    throw new Error("Set CLOUDFLARE_API_TOKEN (with D1 edit permission) and CLOUDFLARE_ACCOUNT_ID.");
  }
  const database = (await workerConfig(env, config)).d1_databases.find(
    (bound: { binding: string }) => bound.binding === binding,
  );
  if (!database?.database_id && !database?.database_name) {
    throw new Error(`${config} gives ${env} no D1 database bound to ${binding}.`);
  }

  const mode = off ? "disabled" : "auto";
  const api = `${(environment.CLOUDFLARE_API_BASE_URL || DEFAULT_API).replace(/\/$/, "")}/accounts/${account}/d1/database`;
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  // A database bound by name alone (as a new environment's is) is found by that name first.
  const id = database.database_id || (await idOf(api, headers, database.database_name));
  const response = await fetch(`${api}/${id}`, {
    method: "PUT",
    headers,
    body: JSON.stringify({ read_replication: { mode } }),
  });
  const answer = (await response.json().catch(() => ({}))) as Answer;
  if (!response.ok || !answer.success) {
    throw new Error(
      `Cloudflare refused to set read replication of ${database.database_name} to ${mode}: ${reasons(answer, response)}`,
    );
  }
  return `Read replication of ${database.database_name} (${env}): ${answer.result?.read_replication?.mode ?? mode}`;
};

/** The id of the database named `name`, as Cloudflare's API finds it by name. */
const idOf = async (api: string, headers: Record<string, string>, name: string) => {
  const response = await fetch(`${api}/${encodeURIComponent(name)}`, { headers });
  const answer = (await response.json().catch(() => ({}))) as Answer;
  if (!response.ok || !answer.success || typeof answer.result?.uuid !== "string") {
    throw new Error(`Cloudflare found no D1 database named ${name}: ${reasons(answer, response)}`);
  }
  return answer.result.uuid;
};

type Answer = {
  success?: boolean;
  errors?: { message: string }[];
  result?: { uuid?: string; read_replication?: { mode?: string } };
};
const reasons = (answer: Answer, response: Response) =>
  answer.errors?.map(({ message }) => message).join("; ") || `HTTP ${response.status}`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    console.log(await setReadReplication(process.argv.slice(2), process.env));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
