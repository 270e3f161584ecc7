import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wrangler } from "../../../scripts/lib/wrangler";
import { configCopy } from "../../../scripts/segments/layout";
import { npmScript } from "../helpers/npm-script";

// `npm run segment:open` on local state, with a copy of wrangler.toml for it to edit: what it
// refuses before writing anything, a step that fails (the new segment's database file cannot
// be made), and the same command run again, which finishes.

const D1_FILES = path.join("v3", "d1", "miniflare-D1DatabaseObject");
const scratch = mkdtempSync(path.join(tmpdir(), "petstore-segment-open-"));
// Beside the repository's files (.wrangler is ignored).
const configDir = mkdtempSync(path.join(".wrangler", "segment-open-"));

/** A configuration of its own and a migrated local state. */
const setUp = (name: string) => {
  const config = configCopy(configDir, `${name}.toml`);
  const state = path.join(scratch, name);
  wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state, "--config", config]);
  return {
    config,
    state,
    files: () =>
      readdirSync(path.join(state, D1_FILES)).filter((file) => file.endsWith(".sqlite") && file !== "metadata.sqlite"),
  };
};

const open = (config: string, state: string, ...args: string[]) =>
  npmScript("segment:open", ["--config", config, "--persist-to", state, ...args]);

const sqlite = (file: string) => new (process.getBuiltinModule("node:sqlite").DatabaseSync)(file);

let main: ReturnType<typeof setUp>;
beforeAll(() => {
  main = setUp("main");
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(configDir, { recursive: true, force: true });
});

describe("npm run segment:open", () => {
  it("refuses a wrong environment or flag, and a second run at once, writing nothing", async () => {
    const before = readFileSync(main.config, "utf8");
    for (const [args, reason] of [
      [["--env", "staging"], "--env staging goes with --remote"],
      [["--env", "prod", "--remote"], '--env is "prod": did you mean production? It must be staging or production'],
      [["--remote"], "--remote needs --env staging or --env production"],
      [["--envv", "staging"], "There is no option --envv: did you mean --env?"],
    ] as const) {
      const refused = await open(main.config, main.state, ...args);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining(reason)]);
    }
    const lock = path.join(main.state, ".segment-open-development.lock");
    writeFileSync(lock, "");
    const locked = await open(main.config, main.state);
    rmSync(lock);
    expect([locked.code, locked.stderr]).toEqual([1, expect.stringContaining("is under way for development")]);
    expect(locked.stderr).toContain("Nothing was written.");
    expect(readFileSync(main.config, "utf8")).toBe(before);
    expect(main.files()).toHaveLength(1);
  });

  it("says which step failed and what each segment is, and finishes when run again; the closed segment refuses pets", async () => {
    // The file the new segment's database gets, learned on a state of its own.
    const other = setUp("other");
    const [firstFile] = other.files();
    expect((await open(other.config, other.state)).code).toBe(0);
    const newFile = other.files().find((file) => file !== firstFile) ?? "";
    // A folder where that file goes: SQLite cannot open it, so applying the migrations fails.
    const blocked = path.join(main.state, D1_FILES, newFile);
    mkdirSync(blocked);
    const failed = await open(main.config, main.state);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("Step 3 of 7, apply the migrations to PETS_1, failed");
    expect(failed.stderr).toContain("Segments now: DB open.");
    expect(failed.stderr).toContain("Run the same command again to finish.");
    expect(readFileSync(main.config, "utf8")).toMatch(/PET_SEGMENTS = "DB"\n/);
    rmSync(blocked, { recursive: true });

    const finished = await open(main.config, main.state);
    expect([finished.code, finished.stderr]).toEqual([
      0,
      expect.stringContaining("Segments of development: DB closed, PETS_1 open."),
    ]);
    expect(readFileSync(main.config, "utf8")).toMatch(/PET_SEGMENTS = "DB PETS_1"\n/);
    expect(existsSync(path.join(main.state, ".segment-open-development.lock"))).toBe(false);

    const [closed, opened] = [firstFile, newFile].map((file) => sqlite(path.join(main.state, D1_FILES, file ?? "")));
    const insert = "insert into pets (name, category_id, status) values ('After', 1, 'available') returning id";
    expect(() => closed?.prepare(insert).get()).toThrow("pets_segment_closed");
    expect(opened?.prepare(insert).get()).toEqual({ id: 2 ** 40 });
    for (const db of [closed, opened]) db?.close();
  });

  it("leaves a state whose backup is a file per segment, restored together into a new state; a failed export writes none", async () => {
    const at = ["--config", main.config, "--persist-to", main.state];
    const output = path.join(scratch, "backup", "petstore.sql");
    mkdirSync(path.dirname(output));
    const files = [output, `${path.join(scratch, "backup", "petstore")}.pets-1.sql`];
    // The second export cannot be written (a folder where it goes): no file is, and none is left half written.
    mkdirSync(`${files[1]}.partial`);
    const failed = await npmScript("backup", ["--output", output, ...at]);
    expect([failed.code, failed.stderr]).toEqual([1, expect.stringContaining("No backup file was written.")]);
    expect(readdirSync(path.dirname(output))).toEqual(["petstore.pets-1.sql.partial"]);
    rmSync(`${files[1]}.partial`, { recursive: true });

    const backedUp = await npmScript("backup", ["--output", output, ...at]);
    expect([backedUp.code, backedUp.stderr]).toEqual([0, expect.stringContaining(`${output} and ${files[1]}`)]);
    // A restore whose second file D1 refuses (a statement past its 100 KB, which the check in
    // memory lets by): the first segment is restored, and the failure says so.
    const refusedByD1 = path.join(scratch, "backup", "refused.pets-1.sql");
    writeFileSync(refusedByD1, `${readFileSync(files[1] as string, "utf8")}\nSELECT '${"x".repeat(200_000)}';\n`);
    const halfway = await npmScript("restore", [
      ...["--input", output, "--input", refusedByD1],
      ...["--config", main.config, "--persist-to", path.join(scratch, "halfway")],
    ]);
    expect(halfway.code).toBe(1);
    expect(halfway.stderr).toContain(`Restoring ${refusedByD1} into PETS_1 failed`);
    expect(halfway.stderr).toContain(`Restored ${output} into`);

    const fresh = path.join(scratch, "restored");
    const restored = await npmScript("restore", [
      ...files.flatMap((file) => ["--input", file]),
      "--config",
      main.config,
      "--persist-to",
      fresh,
    ]);
    expect([restored.code, restored.stderr]).toEqual([0, expect.stringContaining("(PETS_1): ")]);
    const byFile = readdirSync(path.join(fresh, D1_FILES))
      .filter((file) => file.endsWith(".sqlite") && file !== "metadata.sqlite")
      .map((file) => {
        const db = sqlite(path.join(fresh, D1_FILES, file));
        const row = db
          .prepare("select (select closed_at from segment) as closedAt, (select group_concat(id) from pets) as ids")
          .get();
        db.close();
        return row;
      });
    // Segment 0 closed and without pets, segment 1 open with the pet it took.
    expect(byFile).toEqual(
      expect.arrayContaining([
        { closedAt: expect.any(Number), ids: null },
        { closedAt: null, ids: String(2 ** 40) },
      ]),
    );
    expect(byFile).toHaveLength(2);
  });
});
