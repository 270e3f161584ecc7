import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { build } from "esbuild";
import { configDefaults, defineConfig } from "vitest/config";
import { HeaviestFirst } from "./test/helpers/heaviest-first.ts";

const RATE_LIMIT_IN_TESTS = 150;
/**
 * Each project's limit on a test or a hook: a guard against a hang, not a check of speed.
 * No test here measures time, and a loaded machine (2 cores, load average 15) runs builds,
 * process starts and whole suites five times slower than a quiet one: a limit near their
 * quiet durations fails there (the 30 s around `npm run check:deploy`, 9 s quiet, did).
 */
const HANG_GUARD = { testTimeout: 600_000, hookTimeout: 600_000 };
/**
 * The worker tests that run with one segment only: those of segments lay out their own
 * (test/helpers/segments.ts), the bench's floor is one database's by definition
 * (`npm run bench:segments` sets three beside one), the isolate's caches hold the same
 * entries whichever segment a pet is in (the heaviest file of the project, run once); and
 * those whose subject stores nothing of pets: pure functions, the test helpers, the keys (KV,
 * and their usage in the control database), the sign-in and its tokens (OAUTH_KV), MCP's
 * protocol versions.
 */
const ONE_SEGMENT_ONLY = [
  "test/worker/segments/**",
  "test/worker/bench/**",
  "test/worker/faults/memory-budget.test.ts",
  "test/worker/{lib,helpers,keys}/**",
  "test/worker/mcp/{sign-in,token-}*.test.ts",
  "test/worker/mcp/{metadata-fetch,origins,lifetimes,scopes,grant-revocations,versions}.test.ts",
];
const TEST_CURSOR_SECRET = "test-cursor-secret-0123456789abcdef";
// The property tests' seed (test/worker/pets/properties.test.ts): FC_SEED replays a run.
const PROPERTY_SEED = process.env.FC_SEED ?? String(Math.floor(Math.random() * 2 ** 31));

// wrangler.toml lists CURSOR_SECRET and CURSOR_SECRET_PREVIOUS (empty: no rotation), and
// wrangler checks them each time the pool, or a wrangler dev of the e2e tests, reads the
// file: without a .dev.vars it looks in the environment.
process.env.CURSOR_SECRET ??= TEST_CURSOR_SECRET;
process.env.CURSOR_SECRET_PREVIOUS ??= "";

export default defineConfig(async () => {
  // The same SQL that wrangler applies, read from drizzle/ and handed to the tests
  // as a binding, so the test database is built exactly like the real ones.
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "drizzle"));
  // The sign-in Worker (wrangler.auth.toml), beside the API as deployed: the pool runs another
  // Worker only built, so it is bundled here (in well under a second), as wrangler would.
  const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
  // A file per mutant: `npm run test:mutation` runs two at once in one sandbox, and a shared
  // file let one run load the other's bundle.
  const signInWorker = path.join(
    import.meta.dirname,
    ".wrangler",
    "test",
    `auth-server${mutant ? `-${mutant}` : ""}.js`,
  );
  await build({
    entryPoints: [path.join(import.meta.dirname, "src/auth-server/worker.ts")],
    outfile: signInWorker,
    bundle: true,
    format: "esm",
    target: "es2024",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:*"],
    logLevel: "error",
    // `npm run test:mutation`: the mutant that StrykerJS's code switches on, which this Worker,
    // an isolate apart from the tests (test/helpers/apply-migrations.ts), finds where that code looks.
    banner: mutant ? { js: `globalThis.__stryker__ = { activeMutant: ${JSON.stringify(mutant)} };` } : {},
  });
  /** The API, inside workerd with real D1, KV and rate-limit bindings: the tests of `include`, with pets in `segments`. */
  const workerProject = (name: string, segments: string, exclude: string[] = []) => ({
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_RATE_LIMIT: RATE_LIMIT_IN_TESTS,
            RATE_LIMIT_QUOTA: String(RATE_LIMIT_IN_TESTS),
            // Wins over a developer's .dev.vars, so that every run signs cursors alike.
            CURSOR_SECRET: TEST_CURSOR_SECRET,
            CURSOR_SECRET_PREVIOUS: "",
            ACCESS_LOG: "json",
            FC_SEED: PROPERTY_SEED,
            STRADDLE_LIMITER_WINDOW: process.env.STRADDLE_LIMITER_WINDOW ?? "",
            // The mutant that `npm run test:mutation` runs these tests against (test/helpers/apply-migrations.ts).
            STRYKER_ACTIVE_MUTANT: mutant ?? "",
            // The segments the Worker stores pets in (src/db/segments.ts): DB alone as in wrangler.toml, or
            // three, laid out by test/helpers/apply-migrations.ts as a deployment leaves them.
            PET_SEGMENTS: segments,
          },
          // The sign-in Worker, on the same KV of keys and failure throttle as the API (wrangler.auth.toml).
          workers: [
            {
              name: "petstore-auth",
              modules: true,
              scriptPath: signInWorker,
              compatibilityDate: "2026-04-20",
              compatibilityFlags: ["global_fetch_strictly_public"],
              kvNamespaces: { API_KEYS: "00000000000000000000000000000000", OAUTH_KV: "oauth-kv" },
              ratelimits: { AUTH_FAILURE_LIMITER: { namespace_id: "1100", simple: { limit: 60, period: 60 } } },
            },
          ],
          // A second database for test/worker/db/session.test.ts to stand in for a replica that lags,
          // and two more segments of pets (src/db/segments.ts) for the tests of three.
          d1Databases: { LAGGING_REPLICA: "lagging-replica", PETS_1: "pets-1", PETS_2: "pets-2" },
          // The sign-in Worker's own store, for test/worker/mcp/sign-in-faults.test.ts to run that Worker on it, broken.
          kvNamespaces: { TEST_OAUTH_KV: "oauth-kv" },
          // Low enough for test/worker/http/rate-limit.test.ts to reach; tests that send many
          // requests use keys of their own.
          ratelimits: {
            RATE_LIMITER: { namespace_id: "1000", simple: { limit: RATE_LIMIT_IN_TESTS, period: 60 } },
          },
        },
      }),
    ],
    test: {
      name,
      include: ["test/worker/**/*.test.ts"],
      exclude: [...configDefaults.exclude, ...exclude],
      // Vitest's module cache on disk makes a file's run, at its first fetch of a module the
      // runtime lacks, ask for a snapshot of the file's whole import graph, and the pool reads
      // every module's code into it for workerd: megabytes (zod, hono, the OAuth provider,
      // each under two names) sent to a runtime that holds them already. Without the cache, a
      // runtime fetches each module it lacks, and a library's once.
      fsModuleCache: false,
      // The files share two runtimes instead of starting one each (about 3 s a file on
      // two cores); test/helpers/apply-migrations.ts gives each file a fresh start.
      isolate: false,
      maxWorkers: 2,
      ...HANG_GUARD,
      // The access log dropped inside workerd rather than carried out to be dropped; then a fresh
      // start; and at the end, the wait for the file's work after its answers.
      setupFiles: [
        "./test/helpers/drop-access-log.ts",
        "./test/helpers/apply-migrations.ts",
        "./test/helpers/settle-deferred-work.ts",
      ],
    },
  });
  return {
    test: {
      // A passing run prints its summary alone, the same lines on any machine however many
      // files it has; a failing one, each failed file and test with its cause, and the console
      // output of the failed ones (`--reporter=verbose` lists every file with what it took).
      reporters: ["minimal"],
      // A failed file's tests are named without a time: a list of slow tests grows with the machine's slowness.
      slowTestThreshold: Number.POSITIVE_INFINITY,
      // The projects run in one group (none sets sequence.groupOrder), two files at a time
      // (each sets maxWorkers: 2, which a group requires alike), the slowest first.
      sequence: { sequencer: HeaviestFirst },
      projects: [
        workerProject("worker", "DB"),
        // Again with three segments, segment 0 closed and 1 open, as a deployment that opened two.
        workerProject("worker-3-segments", "DB PETS_1 PETS_2", ONE_SEGMENT_ONLY),
        {
          // What needs Node and no Worker: the repository's checks, the OpenAPI linter, the scripts.
          test: {
            name: "node",
            include: ["test/node/**/*.test.ts"],
            environment: "node",
            // The files of a worker share its modules (wrangler takes seconds to load): none
            // changes them, and each starts and stops what it runs.
            isolate: false,
            ...HANG_GUARD,
            maxWorkers: 2,
          },
        },
        {
          // The API over HTTP from outside: against the Worker in wrangler's test harness (and,
          // where a test is about a process or its state on disk, a scratch `wrangler dev` or
          // `npm run dev`), or (test/e2e/live only) against the deployment that scripts/smoke.ts names.
          test: {
            name: "e2e",
            include: ["test/e2e/**/*.test.ts"],
            environment: "node",
            isolate: false,
            globalSetup: ["./test/e2e/helpers/global-setup.ts"],
            ...HANG_GUARD,
            maxWorkers: 2,
          },
        },
        {
          // test/e2e/live again, through Prism's validating proxy in front of the Worker in
          // wrangler's test harness: a tool that nobody here wrote checks every answer against openapi.json.
          test: {
            name: "e2e-prism",
            include: ["test/e2e/live/**/*.test.ts"],
            // Prism re-serializes JSON bodies: the bytes one file sends cannot pass through it
            // unchanged; and it knows only the document, which /mcp is not in (docs/mcp.md).
            exclude: ["test/e2e/live/body-bytes.test.ts", "test/e2e/live/mcp.test.ts"],
            environment: "node",
            isolate: false,
            globalSetup: ["./test/e2e/helpers/prism-setup.ts"],
            ...HANG_GUARD,
            maxWorkers: 2,
          },
        },
      ],
    },
  };
});
