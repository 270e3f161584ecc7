import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { MIGRATIONS_DIR, migrationFiles } from "../../../scripts/lib/local-migrations";
import type { Cloudflare } from "../../../scripts/segments/cloudflare";
import { configCopy, databaseBlocks, listedSegments } from "../../../scripts/segments/layout";
import { openNextSegment } from "../../../scripts/segments/open";

// `npm run segment:open -- --env staging --remote` with Cloudflare stood in for: every wrangler
// command, the deploy and the read replication are recorded, and each D1 database is an SQLite
// database of node:sqlite, reached as wrangler reaches a remote one, by the binding's
// database_id in the configuration passed, or its database_name when it has no id. What only Cloudflare can show (that wrangler's
// commands act as their documentation says) is outside this test.

const scratch = mkdtempSync(path.join(tmpdir(), "petstore-segment-remote-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const optionOf = (args: string[], name: string) => args[args.indexOf(name) + 1];

/** A Cloudflare account with the staging database of `config`, migrated up to `migrated` migrations. */
const standIn = (config: string, migrated: number) => {
  const commands: string[][] = [];
  const databases = new Map<string, { name: string; db: DatabaseSync }>();
  const applyMigrations = (db: DatabaseSync, names: string[]) => {
    db.exec("CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE)");
    for (const name of names) {
      db.exec(readFileSync(path.join(MIGRATIONS_DIR, name), "utf8"));
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").run(name);
    }
  };
  const [first] = databaseBlocks(readFileSync(config, "utf8"), "staging");
  if (!first) throw new Error("no staging database");
  // Bound by name alone, as a new environment's first database is (wrangler.toml gives it no id).
  expect(first.id).toBe("");
  databases.set(first.name, { name: first.name, db: new DatabaseSync(":memory:") });
  applyMigrations(databases.get(first.name)?.db as DatabaseSync, migrationFiles().slice(0, migrated));
  const state = { loggedIn: true, deploysToFail: 0 };
  /** The database a command's binding names, as wrangler finds it: by its id in the configuration given. */
  const bound = (args: string[]) => {
    const binding = args[2] ?? "";
    const block = databaseBlocks(readFileSync(optionOf(args, "--config") ?? "", "utf8"), optionOf(args, "--env"));
    const database = block.find((candidate) => candidate.binding === binding);
    const found = databases.get(database?.id || database?.name || "");
    if (!found) throw new Error(`Couldn't find a D1 DB with the name or binding '${binding}'`);
    return found.db;
  };
  const pending = (db: DatabaseSync) => {
    const applied = new Set(
      (db.prepare("SELECT name FROM d1_migrations").all() as { name: string }[]).map((r) => r.name),
    );
    return migrationFiles().filter((name) => !applied.has(name));
  };
  const cloudflare: Cloudflare = {
    wrangler: (args) => {
      commands.push(args);
      const [command, sub] = args;
      if (command === "whoami")
        return state.loggedIn ? "You are logged in with an API Token." : "You are not authenticated.";
      if (sub === "list") return JSON.stringify([...databases].map(([uuid, { name }]) => ({ uuid, name })));
      if (sub === "create") {
        const uuid = randomUUID();
        databases.set(uuid, { name: args[2] ?? "", db: new DatabaseSync(":memory:") });
        return `[[d1_databases]]\nbinding = "${args[2]}"\ndatabase_name = "${args[2]}"\ndatabase_id = "${uuid}"\n`;
      }
      if (sub === "migrations") {
        const db = bound(args.slice(1));
        db.exec("CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE)");
        const names = pending(db);
        if (args[2] === "list") return names.length > 0 ? names.join("\n") : "✅ No migrations to apply!";
        applyMigrations(db, names);
        return "";
      }
      if (sub === "execute") {
        const db = bound(args);
        const sql = optionOf(args, "--command") ?? "";
        // One --command is one batch: all of it or none.
        db.exec("BEGIN");
        try {
          const results = sql.split(";\n").map((statement) => db.prepare(statement).all());
          db.exec("COMMIT");
          return JSON.stringify(results.map((rows) => ({ results: rows, success: true })));
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
      }
      throw new Error(`the stand-in does not know wrangler ${args.join(" ")}`);
    },
    deploy: (env) => {
      commands.push(["deploy", env]);
      if (state.deploysToFail-- > 0) throw new Error(`npm run deploy:${env} failed`);
    },
    replicate: async (args) => {
      commands.push(["replicate", ...args]);
      return "Read replication: auto";
    },
  };
  const database = (name: string) =>
    [...databases.values()].find((candidate) => candidate.name === name)?.db as DatabaseSync;
  return { cloudflare, commands, state, database };
};

/** What a command did, in short: its first words (a SQL statement's first two). */
const shortly = (args: string[]) => {
  if (args[0] === "whoami" || args[0] === "deploy") return args[0];
  if (args[0] === "replicate") return `replicate ${optionOf(args, "--binding")}`;
  if (args[1] === "execute")
    return `execute ${args[2]} ${optionOf(args, "--command")?.split(" ").slice(0, 2).join(" ")}`;
  return args.slice(0, 4).join(" ").replace(/ --.*/, "");
};

const REMOTE = ["--env", "staging", "--remote"];

describe("npm run segment:open --env staging --remote", () => {
  it("checks the credentials and the migrations before its first write", async () => {
    const config = configCopy(scratch, "checks.toml");
    const before = readFileSync(config, "utf8");
    const cloudflare = standIn(config, migrationFiles().length - 1);
    cloudflare.state.loggedIn = false;
    await expect(openNextSegment([...REMOTE, "--config", config], cloudflare.cloudflare)).rejects.toThrow(
      "wrangler has no credentials",
    );
    cloudflare.state.loggedIn = true;
    await expect(openNextSegment([...REMOTE, "--config", config], cloudflare.cloudflare)).rejects.toThrow(
      `DB has not applied ${migrationFiles().at(-1)}`,
    );
    expect(cloudflare.commands.map(shortly)).toEqual(["whoami", "whoami", "d1 migrations list DB"]);
    expect(readFileSync(config, "utf8")).toBe(before);
  });

  it("creates, binds, migrates and starts the next segment, turns on its replication, lists it, deploys, and only then closes the one before; a failed deploy is finished by running again", async () => {
    const config = configCopy(scratch, "opens.toml");
    const cloudflare = standIn(config, migrationFiles().length);
    cloudflare.state.deploysToFail = 1;
    // Each step's progress, and the replication's report, said on stderr.
    const progress = vi.spyOn(console, "error").mockImplementation(() => {});
    const run = () => openNextSegment([...REMOTE, "--config", config], cloudflare.cloudflare);
    await expect(run()).rejects.toThrow(/Step 7 of 8, deploy staging .*, failed: npm run deploy:staging failed/);
    expect(cloudflare.commands.map(shortly)).toEqual([
      "whoami",
      "d1 migrations list DB",
      "d1 list",
      "d1 create petstore-staging-pets-1",
      "d1 migrations apply PETS_1",
      "execute PETS_1 INSERT INTO",
      "replicate PETS_1",
      "deploy",
      // For the failure's message: what each segment is now.
      "execute DB select closed_at",
      "execute PETS_1 select closed_at",
    ]);
    expect(progress.mock.calls.flat().filter((line) => /^\[segment:open\] \d\/8 .*: done$/.test(line))).toHaveLength(6);
    const text = readFileSync(config, "utf8");
    expect(listedSegments(text, "staging")).toEqual(["DB", "PETS_1"]);
    const created = databaseBlocks(text, "staging").find(({ binding }) => binding === "PETS_1");
    expect(created?.name).toBe("petstore-staging-pets-1");
    const replicated = cloudflare.commands.find(([command]) => command === "replicate") ?? [];
    expect(optionOf(replicated, "--config")).toBe(config);
    // Nothing closed yet: the Workers deployed still create in DB.
    const insert = "INSERT INTO pets (name, category_id, status) VALUES ('After', 1, 'available') RETURNING id";
    expect(cloudflare.database("petstore-staging").prepare(insert).get()).toEqual({ id: 1 });

    cloudflare.commands.length = 0;
    expect((await run()).said).toBe("Segments of staging: DB closed, PETS_1 open.");
    expect(cloudflare.commands.map(shortly)).toEqual([
      "whoami",
      "d1 migrations list DB",
      "d1 migrations list PETS_1",
      "execute DB select closed_at",
      "deploy",
      "execute DB INSERT INTO",
      "execute DB select closed_at",
      "execute PETS_1 select closed_at",
    ]);
    expect(() => cloudflare.database("petstore-staging").prepare(insert).get()).toThrow("pets_segment_closed");
    expect(cloudflare.database("petstore-staging-pets-1").prepare(insert).get()).toEqual({ id: 2 ** 40 });
  });
});
