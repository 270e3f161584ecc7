// The stand-in's storage APIs (./account.ts): KV namespaces and their values, D1 databases
// (each an SQLite database of node:sqlite) and their queries.
import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { type Account, type Answer, type Call, notFound, ok } from "./state";

/** The answer to a request of KV's or D1's API. */
export const storageAnswer = (account: Account, { at, method, url, body, json }: Call): Answer => {
  if (at === "/storage/kv/namespaces" && method === "GET") {
    return [
      200,
      ok(
        [...account.namespaces].map(([id, title]) => ({ id, title })),
        { result_info: { count: 0 } },
      ),
    ];
  }
  if (at === "/storage/kv/namespaces" && method === "POST") {
    const id = randomUUID().replaceAll("-", "");
    const { title } = json<{ title: string }>();
    account.namespaces.set(id, title);
    return [200, ok({ id, title })];
  }
  const value = /^\/storage\/kv\/namespaces\/([^/]+)\/values\/(.+)$/.exec(at);
  if (value && account.namespaces.has(value[1] ?? "")) {
    const key = `${value[1]}/${decodeURIComponent(value[2] ?? "")}`;
    if (method === "PUT") {
      account.values.set(key, body.toString("latin1"));
      return [200, ok({})];
    }
    const found = account.values.get(key);
    if (method === "GET") return found === undefined ? [404, notFound(10009, "key not found")] : [200, found];
  }
  const query = /^\/d1\/database\/([^/]+)\/query$/.exec(at)?.[1];
  const queried = query && account.databases.get(query);
  if (queried && method === "POST") {
    // wrangler's remote commands: one statement that reads, or statements that only write.
    const { sql } = json<{ sql: string }>();
    const reads = /^\s*select\b/i.test(sql) && !/;\s*\S/.test(sql);
    if (!reads) queried.db.exec(sql);
    const results = reads ? queried.db.prepare(sql).all() : [];
    return [200, ok([{ results, success: true, meta: { duration: 0 } }])];
  }
  const database = /^\/d1\/database(?:\/([^/]+))?$/.exec(at);
  if (database) {
    const [, named] = database;
    const all = [...account.databases].map(([uuid, { name }]) => ({ uuid, name }));
    if (!named && method === "GET") return [200, ok(url.searchParams.get("page") === "1" ? all : [])];
    if (!named && method === "POST") {
      const uuid = randomUUID();
      const { name } = json<{ name: string }>();
      account.databases.set(uuid, { name, db: new DatabaseSync(":memory:") });
      return [200, ok({ uuid, name })];
    }
    const found = all.find(({ uuid, name }) => uuid === named || name === decodeURIComponent(named ?? ""));
    if (found && method === "GET") return [200, ok(found)];
    if (!found) return [404, notFound(7404, "The database could not be found.")];
  }
  return undefined;
};
