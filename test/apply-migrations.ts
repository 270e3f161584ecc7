import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Setup files run before each test file, outside its isolated storage;
// applyD1Migrations() records what it applied, so repeating it is a no-op.
const { TEST_MIGRATIONS } = env as Cloudflare.Env & { TEST_MIGRATIONS: D1Migration[] };
await applyD1Migrations(env.DB, TEST_MIGRATIONS);
