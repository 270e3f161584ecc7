// `npm run dev`: everything a newcomer needs, on wrangler's local D1 and KV:
// apply the migrations, make sure the local secrets and a development key exist,
// print the key with a ready-to-paste curl line, then start `wrangler dev` with the API and
// its sign-in Worker (extra arguments pass through, --persist-to included).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createKey, keyExists } from "./keys";
import { applyLocalMigrations } from "./lib/local-migrations";
import { openLocalStores, type Stores } from "./lib/stores";
import type { Target } from "./lib/target";
import { BOTH_WORKERS, LOCAL_TRACES_SWITCH, spawnWrangler, wranglerEnv } from "./lib/wrangler";

const passThrough = process.argv.slice(2);
const { values } = parseArgs({
  args: passThrough,
  strict: false,
  options: { port: { type: "string" }, ip: { type: "string" }, "persist-to": { type: "string" } },
});
const persistTo = typeof values["persist-to"] === "string" ? values["persist-to"] : undefined;
const origin = `http://${values.ip && values.ip !== "0.0.0.0" ? values.ip : "localhost"}:${values.port ?? 8787}`;
const local: Target = { remote: false, persistTo };
// Kept beside the local KV it belongs to: wiping the state drops both together.
const devKeyFile = path.join(persistTo ?? ".wrangler", "dev-api-key");

/**
 * .dev.vars is git-ignored: wrangler dev reads the Worker's local secrets from it. Both
 * secrets that wrangler.toml lists are written: CURSOR_SECRET random, and
 * CURSOR_SECRET_PREVIOUS empty, as no rotation is under way (docs/operations.md, "Rotating CURSOR_SECRET").
 */
const ensureLocalSecrets = () => {
  let current = existsSync(".dev.vars") ? readFileSync(".dev.vars", "utf8") : "";
  const add = (line: string) => {
    const separator = current === "" || current.endsWith("\n") ? "" : "\n";
    appendFileSync(".dev.vars", `${separator}${line}\n`, { mode: 0o600 });
    current += `${separator}${line}\n`;
  };
  if (!/^CURSOR_SECRET=/m.test(current)) {
    add(`CURSOR_SECRET=${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`);
  }
  if (!/^CURSOR_SECRET_PREVIOUS=/m.test(current)) add("CURSOR_SECRET_PREVIOUS=");
};

const developmentKey = async (stores: Stores): Promise<string> => {
  const saved = existsSync(devKeyFile) ? readFileSync(devKeyFile, "utf8").trim() : undefined;
  if (saved && (await keyExists(saved, stores))) return saved;
  const key = await createKey("local development", local, stores);
  mkdirSync(path.dirname(devKeyFile), { recursive: true });
  writeFileSync(devKeyFile, `${key}\n`, { mode: 0o600 });
  return key;
};

ensureLocalSecrets();
const stores = await openLocalStores(local);
let key: string;
try {
  // Every segment of pets (PET_SEGMENTS, src/db/segments.ts), DB first: one until `npm run segment:open` adds another.
  for (const [position, database] of stores.segments.entries()) {
    const applied = await applyLocalMigrations(database);
    const name = position === 0 ? "Local D1 database" : `Local D1 segment ${position}`;
    console.log(`${name}: ${applied.length > 0 ? `applied ${applied.join(", ")}` : "no migrations to apply"}.`);
  }
  key = await developmentKey(stores);
} finally {
  await stores.close();
}
// Without wrangler's local trace store unless asked for (scripts/lib/wrangler.ts says why).
const traces = process.env[LOCAL_TRACES_SWITCH] ?? "false";
console.log(`
Local API key (saved in ${devKeyFile}; more with: npm run --silent key:create -- <label>${persistTo ? ` --persist-to ${persistTo}` : ""}):
  ${key}
Try:
  curl -H "Authorization: Bearer ${key}" ${origin}/v1/pets
API reference: ${origin}/v1/docs (the OpenAPI document: ${origin}/v1/openapi.json)
Local traces: ${traces === "false" ? `off (${LOCAL_TRACES_SWITCH}=true npm run dev keeps them, for wrangler's local explorer)` : "on, kept on disk without bound"}
`);

const dev = spawnWrangler(["dev", ...BOTH_WORKERS, ...passThrough], {
  stdio: "inherit",
  env: { ...wranglerEnv, [LOCAL_TRACES_SWITCH]: traces },
});
let stopping = false;
/** Asks wrangler to stop, which stops its runtimes and frees the port; this process ends when it has. */
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  // An interrupt as a terminal sends it; any other ending as SIGTERM, which wrangler stops cleanly on.
  dev.kill(signal === "SIGINT" ? "SIGINT" : "SIGTERM");
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal));
// A signal sent to `npm run dev` reaches npm, which passes it to the shell it runs this script
// in, and that shell ends without passing it on (as when npm itself is killed): so this process
// watches for its parent to go, and stops as if the signal had reached it.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop("SIGTERM");
}, 250).unref();
dev.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
