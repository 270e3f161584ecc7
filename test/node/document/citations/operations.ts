// The tests that docs/operations.md cites (./citation.ts says what each entry holds).
import { type Citation, edit } from "./citation";

export const OPERATIONS: Citation[] = [
  {
    page: "docs/operations.md",
    test: "test/node/scripts/runbook.test.ts",
    claim: "checks each `npm run` script against `package.json`",
    shownBy: ["name scripts of package.json"],
    breaks: [edit("package.json", '"d1:replication": ', '"d1:replicate": ')],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/deploy.test.ts",
    claim: "runs the rollout's actions on a recording wrangler",
    shownBy: [
      "stops at 0% when the smoke test fails: both previous versions keep all traffic, the API's put back first",
    ],
    breaks: [
      edit(
        "scripts/lib/rollout.ts",
        "if (await actions.smokeTest(workers)) return;",
        "if (true || (await actions.smokeTest(workers))) return;",
      ),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/config-check.test.ts",
    claim: "takes each away in turn, per environment",
    shownBy: ["[env.staging] is refused without any one binding, var or required secret"],
    breaks: [edit("scripts/lib/check-config.ts", '"GET_PET_BROWNOUTS"', '"ACCESS_LOG"')],
  },
  {
    page: "docs/operations.md",
    test: "test/e2e/local/smoke.test.ts",
    claim: "where each request carries the override",
    shownBy: [
      "passes against the base address with /v1, the key taken from SMOKE_KEY; with --version, sends every request to that version of the environment's Worker",
    ],
    breaks: [
      edit(
        "test/e2e/helpers/client.ts",
        "  if (versionOverride) request.headers.set(VERSION_OVERRIDE_HEADER, versionOverride);\n",
        "",
      ),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/migrations.test.ts",
    claim: "shows what it catches",
    shownBy: ["refuses a dropped column and a rebuilt table, and passes an added column"],
    breaks: [edit("scripts/check-migrations.ts", "DROP", "DROPPED")],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/d1-replication.test.ts",
    claim: "runs it against a stand-in that records the requests",
    shownBy: ["asks the API to turn read replication on for the environment's database, with the token"],
    breaks: [edit("scripts/d1-replication.ts", '"auto"', '"disabled"')],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/d1-replication.test.ts",
    claim: "finding a database bound by name alone by that name",
    shownBy: ["asks the API to turn read replication on for the environment's database, with the token"],
    breaks: [
      edit(
        "scripts/d1-replication.ts",
        "database.database_id || (await idOf(api, headers, database.database_name))",
        "database.database_id || database.database_name",
      ),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/first-deploy.test.ts",
    claim: "a first deploy whose API upload fails, the run that finishes it",
    shownBy: [
      "creates the database and both namespaces once, and binds both Workers to one API_KEYS; a failed step is finished by running again",
    ],
    breaks: [
      edit(
        "scripts/deploy.ts",
        "const apiConfig = await uploadConfig(wrangler, env, apiWorker, signInWorker);\n    step(",
        'const apiConfig = "wrangler.toml";\n    step(',
      ),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/first-deploy.test.ts",
    claim: "when the account has none of that name",
    shownBy: [
      "creates the database and both namespaces once, and binds both Workers to one API_KEYS; a failed step is finished by running again",
    ],
    breaks: [edit("scripts/lib/provisioning.ts", "    if (listed.has(name)) continue;", "    continue;")],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/provisioning.test.ts",
    claim: "shows each choice of the shared namespace and builds the copied configuration",
    shownBy: [
      "the API, uploaded while the other binds it, gets the other's: a copy of its configuration, which builds the same Worker with that id",
      "the sign-in Worker, uploaded while the other binds it, gets the other's: a copy of its configuration, which builds the same Worker with that id",
    ],
    breaks: [edit("scripts/lib/provisioning.ts", "  if (copy.main) copy.main = from(copy.main);\n", "")],
  },
  {
    page: "docs/operations.md",
    test: "test/worker/pets/cursor-secret.test.ts",
    claim: "a cursor stays valid while the secret that signed it is either",
    shownBy: ["keeps the cursors handed out before a rotation valid while CURSOR_SECRET_PREVIOUS holds the old secret"],
    breaks: [
      edit("src/core/cursor.ts", "if (encoder.encode(previous).length >= MIN_SECRET_BYTES) return previous;", ""),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/e2e/local/secret-rotation.test.ts",
    claim: "follows a next link issued under the old secret after these steps",
    shownBy: ["keeps next links issued under the old secret valid during a rotation, and only then"],
    breaks: [
      edit("src/core/cursor.ts", "if (encoder.encode(previous).length >= MIN_SECRET_BYTES) return previous;", ""),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/e2e/local/operator-scripts.test.ts",
    claim: "shows that it records every migration of `drizzle/` as applied",
    shownBy: ["restores into fresh state a database that answers the same pets, ids and idempotency records"],
    breaks: [
      edit(
        "scripts/lib/segment-databases.ts",
        'splitSql(readFileSync(file, "utf8")).map((statement)',
        'splitSql(readFileSync(file, "utf8")).filter((statement) => !statement.includes("d1_migrations")).map((statement)',
      ),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/deploy.test.ts",
    claim: "1 in 20 in production",
    shownBy: [
      "production's observability (wrangler.toml) keeps every access line and invocation log in Workers Logs, and traces the share the docs state",
    ],
    breaks: [edit("wrangler.toml", "head_sampling_rate = 0.05", "head_sampling_rate = 0.1")],
  },
  {
    page: "docs/operations.md",
    test: "test/worker/http/observability.test.ts",
    claim: "its fields are asserted in",
    shownBy: ["writes one JSON line per request with its id, route, status, key label and error code, never the key"],
    breaks: [edit("src/http/request-log.ts", "      durationMs: Date.now() - started,\n", "")],
  },
  {
    page: "docs/operations.md",
    test: "test/worker/http/observability.test.ts",
    claim: "is one flat JSON object per request",
    shownBy: ["says whether D1 answered from the primary or from a replica"],
    breaks: [
      edit(
        "src/db/client.ts",
        'if (typeof meta.served_by_primary === "boolean") usage.servedByPrimary ||= meta.served_by_primary;',
        "usage.servedByPrimary = true;",
      ),
    ],
  },
  {
    page: "docs/operations.md",
    test: "test/node/scripts/restore-check.test.ts",
    claim: "reads all of it (a NUL byte, before which SQLite would stop reading, is refused)",
    shownBy: [
      "reads the whole of it: a NUL byte, before which SQLite would stop, is refused",
      "may take 10 s, and 1 s more per MiB begun",
      "gives up at its time limit, ending the check's process, with a clear message",
    ],
    breaks: [
      edit("scripts/lib/check-dump.ts", 'const nul = sql.indexOf("\\0");', "const nul = -1;"),
      edit(
        "scripts/lib/dump-check-process.ts",
        "10_000 + Math.ceil(bytes / 2 ** 20) * 1_000",
        "10_000 + Math.ceil(bytes / 2 ** 20) * 2_000",
      ),
      edit("scripts/lib/dump-check-process.ts", 'check.kill("SIGKILL");', "return;"),
    ],
  },
];
