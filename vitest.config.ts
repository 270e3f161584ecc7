import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

const RATE_LIMIT_IN_TESTS = 150;

export default defineConfig(async () => {
  // The same SQL that wrangler applies, read from drizzle/ and handed to the tests
  // as a binding, so the test database is built exactly like the real ones.
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "drizzle"));
  return {
    test: {
      projects: [
        {
          // The API, inside workerd with real D1, KV and rate-limit bindings.
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  TEST_RATE_LIMIT: RATE_LIMIT_IN_TESTS,
                  CURSOR_SECRET: "test-cursor-secret",
                  ACCESS_LOG: "json",
                },
                // Low enough for test/rate-limit.test.ts to reach; tests that send many
                // requests use keys of their own.
                ratelimits: { RATE_LIMITER: { simple: { limit: RATE_LIMIT_IN_TESTS, period: 60 } } },
              },
            }),
          ],
          test: {
            name: "worker",
            include: ["test/*.test.ts"],
            setupFiles: ["./test/apply-migrations.ts"],
            // One JSON line per request is the Worker's access log; keep errors, drop the rest.
            onConsoleLog: (log: string) => !log.startsWith('{"level":"info"'),
          },
        },
        {
          // What needs Node: the OpenAPI linter, and a real browser against `wrangler dev`.
          test: {
            name: "node",
            include: ["test/node/*.test.ts"],
            environment: "node",
          },
        },
      ],
    },
  };
});
