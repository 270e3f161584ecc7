import path from "node:path";
import { createTestHarness, type TestHarness } from "wrangler";
import { type ApiKeyRecord, generateApiKey, hashApiKey } from "../../../src/keys/api-key";

// The Worker of wrangler.toml (with the sign-in Worker of wrangler.auth.toml beside it) on a real HTTP port inside the test process (wrangler's
// test harness: the runtime that `wrangler dev` runs, without a process of its own),
// on fresh in-memory D1 and KV with the migrations of drizzle/ applied, and a key issued
// as scripts/keys.ts issues one. The tests about the `npm run dev` process itself, the
// scripts that write a server's state on disk and outages made by locking that state from
// another process start a real `npm run dev` or `wrangler dev` instead (scripts/lib/dev-server.ts).

const ROOT = path.resolve(import.meta.dirname, "../../..");
/** The secret of every harness, unless a test hands it others. */
const CURSOR_SECRET = "e2e-cursor-secret-0123456789abcdef";

type Settings = {
  /** An environment of wrangler.toml (staging: its limits), rather than its top level. */
  env?: string;
  /** Vars in place of wrangler.toml's (ALLOWED_ORIGINS, say). */
  vars?: Record<string, string>;
  /** Secrets in place of the test's own CURSOR_SECRET (and an empty CURSOR_SECRET_PREVIOUS). */
  secrets?: Record<string, string>;
};

export type Harness = {
  origin: string;
  /** A key with both scopes, issued once the server started. */
  apiKey: string;
  /** Issues another key, with the record a test gives (a label, scopes, an expiry). */
  issueKey: (record?: Partial<ApiKeyRecord>, key?: string) => Promise<string>;
  /** The KV namespaces: API_KEYS (the API's keys), OAUTH_KV (the sign-in Worker's grants and tokens). */
  store: (binding: "API_KEYS" | "OAUTH_KV") => Promise<KVNamespace>;
  /** What both Workers have logged since they started. */
  logs: () => string[];
  /** Restarts the Worker with other settings: its storage is kept, its isolate is new. */
  restart: (settings: Settings) => Promise<void>;
  close: () => Promise<void>;
};

const workerOptions = ({ env, vars = {}, secrets = {} }: Settings) => ({
  root: ROOT,
  workers: [
    {
      configPath: "./wrangler.toml",
      env,
      vars,
      secrets: { CURSOR_SECRET, CURSOR_SECRET_PREVIOUS: "", ...secrets },
    },
    // The sign-in Worker (OAuth for /mcp), which the API's AUTH binding names, as deployed beside it.
    { configPath: "./wrangler.auth.toml", env },
  ],
});

const putKey = async (harness: TestHarness, record: Partial<ApiKeyRecord>, key: string) => {
  const env = await harness.getWorker<Cloudflare.Env>().getEnv();
  const full: ApiKeyRecord = { label: "e2e", createdAt: new Date().toISOString(), ...record };
  await env.API_KEYS.put(await hashApiKey(key), JSON.stringify(full));
  return key;
};

export const startHarness = async (settings: Settings = {}): Promise<Harness> => {
  const harness = createTestHarness(workerOptions(settings));
  try {
    let { url } = await harness.listen();
    await harness.getWorker().applyD1Migrations("DB");
    const issueKey = (record: Partial<ApiKeyRecord> = {}, key = generateApiKey("development")) =>
      putKey(harness, record, key);
    const apiKey = await issueKey();
    return {
      get origin() {
        return url.origin;
      },
      apiKey,
      issueKey,
      logs: () => harness.getLogs().map(({ message }) => message),
      store: async (binding) =>
        binding === "OAUTH_KV"
          ? (await harness.getWorker<{ OAUTH_KV: KVNamespace }>("petstore-auth").getEnv()).OAUTH_KV
          : (await harness.getWorker<Cloudflare.Env>().getEnv()).API_KEYS,
      restart: async (next) => {
        await harness.update(workerOptions(next));
        ({ url } = await harness.listen());
      },
      close: () => harness.close(),
    };
  } catch (error) {
    await harness.close();
    throw error;
  }
};

let shared: Promise<Harness> | undefined;
let sharers = 0;

/**
 * One harness for the global setups of the e2e and e2e-prism projects (they run in the
 * same process, one after the other): it starts once, and closes when the last lets go.
 */
export const shareHarness = async () => {
  sharers++;
  shared ??= startHarness();
  const harness = await shared;
  return {
    harness,
    release: async () => {
      if (--sharers === 0) await harness.close();
    },
  };
};
