import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { backUp, restore, runBackup } from "../../../scripts/backup";
import { type DevServer, startDevServer } from "../../../scripts/lib/dev-server";
import { migrationFiles } from "../../../scripts/lib/local-migrations";
import { openStores } from "../../../scripts/lib/stores";
import { hashApiKey } from "../../../src/keys/api-key";
import { api, type Pet, petName } from "./client";
import type { ScratchState } from "./key-script-tests";
import { peekDatabase } from "./lock-store";

// A backup (`npm run backup`) of the state a scratch server serves (test/e2e/local/operator-scripts.test.ts
// starts it), a restore (`npm run restore`) into fresh state, and a server on the restored state
// answering as the first did.

export const backupTests = (state: ScratchState) => {
  let restored: DevServer | undefined;
  const scratch = mkdtempSync(path.join(tmpdir(), "petstore-backup-test-"));
  afterAll(async () => {
    await restored?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Copies the server's key's record into the local KV under `persistTo`. */
  const copyKey = async (persistTo: string) => {
    const hash = await hashApiKey(state.key);
    const target = await openStores({ remote: false, persistTo });
    try {
      const record = (await state.stores.keys.get(hash)) ?? "";
      await target.keys.put(hash, record, JSON.parse(record));
    } finally {
      await target.close();
    }
  };

  it("restores into fresh state a database that answers the same pets, ids and idempotency records", async () => {
    const on =
      (origin: string) =>
      (pathname: string, init: Parameters<typeof api>[1] = {}) =>
        api(pathname, { origin, key: state.key, ...init });
    const { server } = state;
    const keyed = {
      method: "POST",
      json: { name: petName("backed up, keyed"), categoryId: 2, status: "sold" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    };
    for (const name of ["first", "second"]) {
      const created = await on(server.origin)("/v1/pets", {
        method: "POST",
        json: { name: petName(name), categoryId: 1 },
      });
      expect(created.status).toBe(201);
    }
    const keyedPet = (await (await on(server.origin)("/v1/pets", keyed)).json()) as Pet;
    const before = (await (await on(server.origin)("/v1/pets?limit=100")).json()) as Pet[];
    expect(before).toContainEqual(keyedPet);

    const file = path.join(scratch, "backup.sql");
    // Through the commands' entry point in this process (test/node/scripts/commands.test.ts
    // runs each as its process).
    const backedUp = await runBackup(["backup", "--persist-to", server.persistTo, "--output", file]);
    expect(backedUp.said).toMatch(/^Backed up /);
    const restoredState = path.join(scratch, "restored");
    const restoredRun = await runBackup(["restore", "--persist-to", restoredState, "--input", file]);
    expect(restoredRun.said).toMatch(
      new RegExp(
        `^Restored .*: pets ${before.length}, idempotency_keys \\d+, deprecated_calls \\d+, api_key_last_used \\d+, segment \\d+ rows\\.$`,
        "m",
      ),
    );
    // The backup holds the record of the migrations applied before it, every one of drizzle/,
    // in the table where wrangler looks for them (test/node/scripts/migrations.test.ts): wrangler,
    // which applies them to deployed databases, finds none left to apply.
    const recorded = peekDatabase<{ name: string }>(restoredState, "select name from d1_migrations order by id");
    expect(recorded.map(({ name }) => name)).toEqual(migrationFiles());
    // API keys live in KV, which a backup of D1 does not hold: the key's record goes along.
    await copyKey(restoredState);

    restored = await startDevServer({ name: "the restored state", command: "wrangler dev", persistTo: restoredState });
    const onRestored = on(restored.origin);
    expect(await (await onRestored("/v1/pets?limit=100")).json()).toEqual(before);
    const replay = await onRestored("/v1/pets", keyed);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await replay.json()).toEqual(keyedPet);
    const next = (await (
      await onRestored("/v1/pets", { method: "POST", json: { name: petName("after"), categoryId: 1 } })
    ).json()) as Pet;
    expect(next.id).toBeGreaterThan(Math.max(...before.map(({ id }) => id)));

    // A database that has tables is refused: the file would fail half-way on it.
    await expect(restore({ remote: false, persistTo: restoredState }, [file])).rejects.toThrow(
      /is not empty \(DB has .*pets.*\): restore into a new database/,
    );
  });

  it("refuses a dump cut short between statements, saying what it lacks, and leaves the target empty for the whole one", async () => {
    const whole = path.join(scratch, "backup.sql");
    const cut = path.join(scratch, "cut.sql");
    const lines = readFileSync(whole, "utf8").split("\n");
    // Up to the first index: the pets, and neither the other tables nor the indexes.
    writeFileSync(
      cut,
      lines
        .slice(
          0,
          lines.findIndex((line) => line.startsWith("CREATE TABLE `idempotency_keys`")),
        )
        .join("\n"),
    );
    const target = { remote: false, persistTo: path.join(scratch, "restored from a cut dump") };
    await expect(restore(target, [cut])).rejects.toThrow(
      /^The dump is incomplete or not of this schema: it lacks .*table idempotency_keys.*table deprecated_calls.*table api_key_last_used.*\. Nothing was restored\.$/,
    );
    await expect(restore(target, [whole])).resolves.toMatch(/^Restored .*: pets \d+, idempotency_keys/);
  });

  it("backup refuses to write over a file without --force, and a state that holds no D1", async () => {
    const existing = path.join(scratch, "existing.sql");
    writeFileSync(existing, "precious");
    const served = { remote: false, persistTo: state.server.persistTo };
    await expect(backUp(served, existing, false)).rejects.toThrow(
      `${existing} exists: name another file, or add --force to replace it.`,
    );
    const empty = path.join(scratch, "not a state");
    await expect(backUp({ remote: false, persistTo: empty }, path.join(scratch, "new.sql"), false)).rejects.toThrow(
      /holds no D1 database \(no .*not a state\/v3\/d1\): is that the state\?$/,
    );
    expect([readFileSync(existing, "utf8"), existsSync(empty), existsSync(path.join(scratch, "new.sql"))]).toEqual([
      "precious",
      false,
      false,
    ]);
    expect(await backUp(served, existing, true)).toMatch(/^Backed up /);
    expect(readFileSync(existing, "utf8")).toMatch(/^PRAGMA defer_foreign_keys=TRUE;\nCREATE TABLE d1_migrations/);
  });
};
