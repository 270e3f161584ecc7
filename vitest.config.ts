import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { buildDocsAssets } from "./scripts/docs-assets";

export default defineConfig(async () => {
  // wrangler.toml's [assets] directory must exist before workerd or wrangler dev start.
  buildDocsAssets();
  // The same SQL that wrangler applies, read from drizzle/ and handed to the tests
  // as a binding, so the test database is built exactly like the real ones.
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "drizzle"));
  return {
    test: {
      projects: [
        {
          // The API, inside workerd with real D1 and KV bindings.
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: { bindings: { TEST_MIGRATIONS: migrations, CURSOR_SECRET: "test-cursor-secret" } },
            }),
          ],
          test: {
            name: "worker",
            include: ["test/*.test.ts"],
            setupFiles: ["./test/apply-migrations.ts"],
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
