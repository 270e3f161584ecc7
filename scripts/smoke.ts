// `npm run smoke -- --base-url https://petstore-production.<account>.workers.dev/v1 [--key ps_live_...]
//    [--env production --version <version id>]`
//
// The base URL is what the OpenAPI document's `servers` give (the API's base address,
// ending in /v1), or the bare origin. The key comes from --key or, so that it stays out
// of command lines and CI logs, from SMOKE_KEY. With --version, every request carries
// Cloudflare-Workers-Version-Overrides for that version of the environment's Worker, so
// that a version deployed at 0% answers them (scripts/deploy.ts tests a new one so).
//
// The e2e tests that are safe against a live deployment (test/e2e/live: no floods, a
// few pets created, each named "smoke-test ..."), run against the given server instead
// of a scratch `npm run dev`. scripts/deploy.ts runs it after a deploy when configured.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { API_KEY_PATTERN, isWellFormedApiKey } from "../src/keys/api-key";
import { DEPLOYED_ENVIRONMENTS } from "./lib/target";
import { workerConfig } from "./lib/wrangler";

export type SmokeTarget = { baseUrl: string; key: string; versionOverride?: string };

const VERSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The Cloudflare-Workers-Version-Overrides member (an RFC 8941 dictionary's) that routes to
 * `versionId` of the Worker `config` describes; members are joined with ", ".
 */
export const versionOverride = async (env: string, versionId: string, config = "wrangler.toml") => {
  if (!DEPLOYED_ENVIRONMENTS.includes(env)) throw new Error(`--env must be ${DEPLOYED_ENVIRONMENTS.join(" or ")}.`);
  if (!VERSION_ID.test(versionId)) throw new Error(`Not a Worker version id: ${versionId}`);
  return `${(await workerConfig(env, config)).name}="${versionId}"`;
};

/** The API's base path: the routes live under it, at the root of the Worker's origin. */
const BASE_PATH = "/v1";

/** Where production answers: its Worker's workers.dev host (`<name>.<account>.workers.dev`) and its routes' hosts. */
export type ProductionHosts = { workerName: string; routeHosts: string[] };

export const productionHosts = async (): Promise<ProductionHosts> => {
  const { name, routes = [] } = await workerConfig("production");
  const patterns = (routes as (string | { pattern: string })[]).map((route) =>
    typeof route === "string" ? route : route.pattern,
  );
  return {
    workerName: name ?? "",
    routeHosts: patterns.map((pattern) => pattern.split("/")[0]?.replace(/^\*\.?/, "") ?? ""),
  };
};

const isProduction = ({ hostname }: URL, { workerName, routeHosts }: ProductionHosts) =>
  (hostname.startsWith(`${workerName}.`) && hostname.endsWith(".workers.dev")) ||
  routeHosts.some((host) => host && (hostname === host || hostname.endsWith(`.${host}`)));

const isLoopback = ({ hostname }: URL) => hostname === "localhost" || hostname === "[::1]" || /^127\./.test(hostname);

/**
 * The server and key to test, checked before anything runs (scripts/deploy.ts: before it
 * deploys). `baseUrl` is the origin, or the base address: the origin and /v1. A test key
 * never goes to production (which refuses it anyway, so a pass would prove nothing), and a
 * live key never over plain HTTP, but to this machine.
 */
export const smokeTarget = (
  baseUrl: string,
  key: string | undefined,
  env: string | undefined,
  production: ProductionHosts,
): SmokeTarget => {
  const url = URL.parse(baseUrl);
  const path = url?.pathname.replace(/\/$/, "") ?? "";
  if (
    !url ||
    !["http:", "https:"].includes(url.protocol) ||
    !["", BASE_PATH].includes(path) ||
    url.search ||
    url.hash
  ) {
    throw new Error(
      `The base URL must be the API's base address, such as https://petstore-production.example.workers.dev${BASE_PATH} (as in the document's servers), or its origin alone: ${baseUrl}`,
    );
  }
  if (!key) throw new Error("Give the API key with --key, or in SMOKE_KEY.");
  if (!API_KEY_PATTERN.test(key)) throw new Error("The key is not an API key (ps_live_... or ps_test_...).");
  if (!isWellFormedApiKey(key)) throw new Error("The key fails its checksum: it was mistyped or cut short.");
  if ((env === "production" || isProduction(url, production)) && !key.startsWith("ps_live_")) {
    throw new Error("The key is a ps_test_ key, which production never issues: give production's (ps_live_...).");
  }
  if (key.startsWith("ps_live_") && url.protocol === "http:" && !isLoopback(url)) {
    throw new Error(
      "The key is a live key, which goes over https only (or to this machine): use the https:// address.",
    );
  }
  return { baseUrl: url.origin, key };
};

/** Runs test/e2e/live against the target; vitest prints the results and sets process.exitCode if they fail. */
export const runSmokeTest = async ({ baseUrl, key, versionOverride }: SmokeTarget) => {
  // In this process rather than a child's, so that the key is in no command line or
  // environment; loaded here, so that a refusal of the arguments comes at once.
  const { startVitest } = await import("vitest/node");
  // Without vitest.config.ts, whose workerd project would load wrangler for nothing here
  // (seconds): the live tests need Node and the values provided, nothing else.
  const vitest = await startVitest([], {
    config: false,
    run: true,
    include: ["test/e2e/live/**/*.test.ts"],
    environment: "node",
    // One worker after another file: they share nothing but the server.
    isolate: false,
    testTimeout: 30_000,
    provide: { baseUrl, apiKey: key, versionOverride },
  });
  await vitest.close();
  return !process.exitCode;
};

/** The target that `npm run smoke -- ...args` names, the key from --key or else `smokeKey`; refuses anything else. */
export const smokeArguments = async (args: string[], smokeKey: string | undefined): Promise<SmokeTarget> => {
  const { values } = parseArgs({
    args,
    options: {
      "base-url": { type: "string" },
      key: { type: "string" },
      env: { type: "string" },
      version: { type: "string" },
    },
  });
  if (!values["base-url"] || !values.env !== !values.version) {
    throw new Error(
      "Usage: SMOKE_KEY=<API key> npm run smoke -- --base-url <https://.../v1> [--env <staging|production> --version <version id>]   (or --key <API key>)",
    );
  }
  const target = smokeTarget(values["base-url"], values.key ?? smokeKey, values.env, await productionHosts());
  if (values.env && values.version) target.versionOverride = await versionOverride(values.env, values.version);
  return target;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    await runSmokeTest(await smokeArguments(process.argv.slice(2), process.env.SMOKE_KEY));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
