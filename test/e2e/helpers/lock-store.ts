import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync } from "node:fs";
import path from "node:path";

// Makes a local store of `wrangler dev` fail the way a real outage does: another process
// takes an exclusive lock on its SQLite files, so that workerd's own reads and writes of
// them fail (SQLITE_BUSY) until the lock is released. Nothing in the Worker is changed.

// Each store's folder, and how it is locked. BEGIN EXCLUSIVE keeps writers out, which
// fails D1's queries (each takes a write lock for its session's commit token) and the
// limiters' counts; KV's reads need readers kept out too, which in WAL mode takes
// locking_mode=EXCLUSIVE (measured with wrangler 4.155; D1's file refuses that mode while
// workerd has it open). That lock is granted only once workerd has closed the KV object's
// database, about 10 s after its last use (measured 9.9 s at outages.test.ts's lock, 2026-11-28).
const STORES = {
  d1: { folder: "v3/d1/miniflare-D1DatabaseObject", lock: "BEGIN EXCLUSIVE;" },
  kv: { folder: "v3/kv/miniflare-KVNamespaceObject", lock: "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE;" },
  ratelimit: { folder: "v3/ratelimit/miniflare-RateLimiterObject", lock: "BEGIN EXCLUSIVE;" },
};

// Runs in its own Node process (node:sqlite): locks each file given, says "locked", and
// holds the locks until its standard input closes.
const HOLDER = `
const { DatabaseSync } = require("node:sqlite");
const [lock, ...files] = process.argv.slice(1);
const held = files.map((file) => {
  const db = new DatabaseSync(file, { timeout: 10000 });
  db.exec(lock);
  return db;
});
console.log("locked");
process.stdin.resume();
process.stdin.on("end", () => {
  for (const db of held) { db.exec("ROLLBACK"); db.close(); }
  process.exit(0);
});
`;

export type HeldLock = { release: () => Promise<void> };

/** The SQLite files of `store` under `persistTo`: its objects' databases, not wrangler's metadata. */
const storeFiles = (persistTo: string, store: keyof typeof STORES) => {
  const folder = path.join(persistTo, STORES[store].folder);
  const files = readdirSync(folder)
    .filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite")
    .map((name) => path.join(folder, name));
  if (files.length === 0) throw new Error(`no ${store} database under ${folder} yet`);
  return files;
};

/**
 * Reads the local D1 database as a plain SQLite reader, which never fails the server's
 * writes: a query through wrangler's D1 takes the write lock (see STORES), and one that
 * meets the server's write makes that write fail.
 */
export const peekDatabase = <Row>(persistTo: string, sql: string): Row[] => {
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const [file] = storeFiles(persistTo, "d1");
  const db = new DatabaseSync(file as string, { readOnly: true });
  try {
    return db.prepare(sql).all() as Row[];
  } finally {
    db.close();
  }
};

/** Locks every SQLite file of `store` under `persistTo`. */
export const lockStore = async (persistTo: string, store: keyof typeof STORES): Promise<HeldLock> => {
  const files = storeFiles(persistTo, store);
  const holder = spawn(process.execPath, ["-e", HOLDER, STORES[store].lock, ...files], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  holder.stdout.on("data", (chunk) => {
    output += chunk;
  });
  holder.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const exited = once(holder, "exit");
  await Promise.race([
    new Promise<void>((resolve) => holder.stdout.on("data", () => output.includes("locked") && resolve())),
    exited.then(() => {
      throw new Error(`the lock on ${store} could not be taken: ${output}`);
    }),
  ]);
  return {
    release: async () => {
      holder.stdin.end();
      await exited;
    },
  };
};
