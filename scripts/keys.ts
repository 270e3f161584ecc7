// Issues, lists and revokes API keys. Only a key's SHA-256 and its record reach KV;
// the key itself is printed once and never stored.
//
//   npm run --silent key:create -- <label> [--env staging|production] [--remote]
//   npm run --silent key:revoke -- <key or hash> [--env ...] [--remote]
//   npm run --silent key:list -- [--env ...] [--remote]
//
// Without --remote, each also takes --persist-to <dir>: the local KV of a
// `wrangler dev --persist-to <dir>` (or `npm run dev -- --persist-to <dir>`) instead
// of the one under .wrangler/state, as the e2e tests and the bench keep scratch state.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { API_KEY_PATTERN, type ApiKeyRecord, generateApiKey, hashApiKey } from "../src/api-keys";
import { describeTarget, TARGET_OPTIONS, type Target, targetArgs, targetFrom } from "./target";
import { wrangler } from "./wrangler";

const BINDING = ["--binding", "API_KEYS"];
const HASH_PATTERN = /^[0-9a-f]{64}$/;

export const createKey = async (label: string, target: Target): Promise<string> => {
  const key = generateApiKey(target.env ?? "development");
  const record = JSON.stringify({ label, createdAt: new Date().toISOString() } satisfies ApiKeyRecord);
  // The record is also the metadata, so that `key:list` reads every label in one call.
  wrangler([
    "kv",
    "key",
    "put",
    ...BINDING,
    await hashApiKey(key),
    record,
    "--metadata",
    record,
    ...targetArgs(target),
  ]);
  return key;
};

export const keyExists = async (key: string, target: Target): Promise<boolean> =>
  wrangler(["kv", "key", "get", ...BINDING, await hashApiKey(key), ...targetArgs(target)]).trim() !== "Value not found";

const revokeKey = async (keyOrHash: string, target: Target) => {
  const hash = API_KEY_PATTERN.test(keyOrHash) ? await hashApiKey(keyOrHash) : keyOrHash;
  if (!HASH_PATTERN.test(hash)) throw new Error("Pass the key itself, or the hash that key:list shows.");
  const found = wrangler(["kv", "key", "get", ...BINDING, hash, ...targetArgs(target)]).trim();
  if (found === "Value not found") throw new Error(`No key with hash ${hash} in ${describeTarget(target, "KV")}.`);
  wrangler(["kv", "key", "delete", ...BINDING, hash, ...targetArgs(target)]);
  return hash;
};

const listKeys = (target: Target) => {
  const keys = JSON.parse(wrangler(["kv", "key", "list", ...BINDING, ...targetArgs(target)])) as {
    name: string;
    metadata?: ApiKeyRecord;
  }[];
  return keys.map(({ name, metadata }) => `${name}  ${metadata?.createdAt ?? "?"}  ${metadata?.label ?? ""}`);
};

const main = async () => {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: TARGET_OPTIONS });
  const [command, argument] = positionals;
  const target = targetFrom(values);
  switch (command) {
    case "create": {
      const label = argument?.trim();
      if (!label) {
        throw new Error(
          "Usage: npm run --silent key:create -- <label> [--env staging|production] [--remote | --persist-to DIR]",
        );
      }
      const key = await createKey(label, target);
      console.error(`Created the key "${label}" for ${describeTarget(target, "KV")}. It is shown once, below:`);
      console.log(key);
      return;
    }
    case "revoke": {
      if (!argument) throw new Error("Usage: npm run --silent key:revoke -- <key or hash> [--env ...] [--remote]");
      const hash = await revokeKey(argument, target);
      console.error(`Revoked the key with hash ${hash} in ${describeTarget(target, "KV")}.`);
      return;
    }
    case "list":
      for (const line of listKeys(target)) console.log(line);
      return;
    default:
      throw new Error("Commands: create <label>, revoke <key or hash>, list");
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
