// A stand-in for one Cloudflare account's REST API, as far as wrangler's deploys of the two
// Workers reach it: Workers (their uploads with bindings, versions and deployments), KV
// namespaces and D1 databases, each created on request and kept in memory. Wrangler is
// pointed at it with CLOUDFLARE_API_BASE_URL; its every request is recorded, and one it
// does not know is answered 404 and named in `unknown`, so that a test fails on it.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DatabaseSync } from "node:sqlite";

export const ACCOUNT_ID = "0123456789abcdef0123456789abcdef";

type Binding = { type: string; name: string; id?: string; namespace_id?: string; [field: string]: unknown };
type Version = { id: string; bindings: Binding[] };
type Worker = { versions: Version[]; deployed?: { version_id: string; percentage: number }[] };

/** The account's contents and what was asked of it. */
export type Account = {
  workers: Map<string, Worker>;
  namespaces: Map<string, string>;
  databases: Map<string, { name: string; db: DatabaseSync }>;
  /** KV values by "<namespace id>/<key>", as uploaded (a key's metadata beside its value). */
  values: Map<string, string>;
  requests: string[];
  unknown: string[];
  /** Workers whose next upload fails (once each). */
  failUploadsOf: Set<string>;
};

const ok = (result: unknown, extra: Record<string, unknown> = {}) => ({
  success: true,
  errors: [],
  messages: [],
  result,
  ...extra,
});
const notFound = (code: number, message: string) => ({ success: false, errors: [{ code, message }], messages: [] });

/** The bindings of the version serving most of a Worker's traffic. */
export const servingBindings = (worker: Worker | undefined): Binding[] => {
  const [serving] = (worker?.deployed ?? []).toSorted((a, b) => b.percentage - a.percentage);
  return worker?.versions.find(({ id }) => id === serving?.version_id)?.bindings ?? [];
};

/** The metadata part of a Worker upload (multipart/form-data). */
const uploadMetadata = (request: IncomingMessage, body: Buffer): { bindings: Binding[]; keep_bindings?: string[] } => {
  const boundary = /boundary=(.+)$/.exec(request.headers["content-type"] ?? "")?.[1] ?? "";
  for (const part of body.toString("latin1").split(`--${boundary}`)) {
    if (/name="metadata"/.test(part)) return JSON.parse(part.slice(part.indexOf("\r\n\r\n") + 4).trimEnd());
  }
  throw new Error("an upload without metadata");
};

const route = (account: Account, request: IncomingMessage, body: Buffer): [number, unknown] => {
  const url = new URL(request.url ?? "/", "http://stand-in");
  const prefix = `/client/v4/accounts/${ACCOUNT_ID}`;
  const at = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
  const method = request.method ?? "GET";
  const json = () => JSON.parse(body.toString() || "null");
  const script = /^\/workers\/(?:scripts|services)\/([^/]+)(.*)$/.exec(at);
  const workerSettings = /^\/workers\/workers\/([^/]+)$/.exec(at)?.[1];
  if (workerSettings && method === "GET" && account.workers.has(workerSettings)) {
    return [200, ok({ id: workerSettings, subdomain: { enabled: false, previews_enabled: false } })];
  }
  if (at === "/workers/subdomain" && method === "GET") return [200, ok({ subdomain: "stand-in" })];
  if (script) {
    const [, name = "", rest] = script;
    const worker = account.workers.get(name);
    const absent = (): [number, unknown] => [404, notFound(10007, "This Worker does not exist on your account.")];
    if (rest === "" && method === "GET") {
      return worker
        ? [200, ok({ default_environment: { environment: "production", script: { id: name } } })]
        : absent();
    }
    if ((rest === "" && method === "PUT") || (rest === "/versions" && method === "POST")) {
      // Refused as Cloudflare refuses a Worker it cannot start (wrangler does not retry a 400).
      if (account.failUploadsOf.delete(name)) return [400, notFound(10021, "Uncaught Error: the stand-in refused it")];
      const updated = worker ?? { versions: [] };
      // An inherited binding (bindings_inherit=strict) is the serving version's of that name.
      const metadata = uploadMetadata(request, body);
      const serving = servingBindings(updated);
      const bindings = metadata.bindings.map((binding) =>
        binding.type === "inherit"
          ? (serving.find(({ name }) => name === binding.name) ?? { ...binding, missing: true })
          : binding,
      );
      // Secrets stay from version to version unless given anew (keep_bindings).
      const kept = serving.filter(
        ({ type, name }) => metadata.keep_bindings?.includes(type) && !bindings.some((given) => given.name === name),
      );
      bindings.push(...kept);
      if (bindings.some(({ missing }) => missing)) {
        return [400, notFound(10021, "An inherited binding is not bound in the serving version.")];
      }
      const version = { id: randomUUID(), bindings };
      updated.versions.push(version);
      if (rest === "") updated.deployed = [{ version_id: version.id, percentage: 100 }];
      account.workers.set(name, updated);
      // A deploy (PUT) names its version deployment_id; an upload (POST …/versions) names it id.
      const said = {
        id: version.id,
        deployment_id: version.id,
        startup_time_ms: 1,
        metadata: { has_preview: false },
        resources: { script: { etag: version.id } },
      };
      return [200, ok(said)];
    }
    if (!worker) return absent();
    if (rest === "/settings" && method === "GET") return [200, ok({ bindings: servingBindings(worker) })];
    // What a deploy sets beside the code: logs, the workers.dev address, the cron triggers.
    if (rest === "/script-settings" && method === "PATCH") return [200, ok({})];
    if (rest === "/subdomain" && method === "POST") return [200, ok(json())];
    if (rest === "/schedules" && method === "PUT") return [200, ok({ schedules: json() })];
    if (rest === "/secrets" && method === "GET") {
      return [200, ok(servingBindings(worker).filter(({ type }) => type === "secret_text"))];
    }
    if (rest === "/deployments" && method === "POST") {
      worker.deployed = json().versions;
      return [200, ok({ id: randomUUID(), versions: worker.deployed })];
    }
    if (rest === "/deployments" && method === "GET") {
      const deployments = worker.deployed ? [{ id: "deployment", versions: worker.deployed }] : [];
      return [200, ok({ deployments })];
    }
    const version = /^\/versions\/([^/]+)$/.exec(rest ?? "")?.[1];
    if (version && method === "GET") {
      const found = worker.versions.find(({ id }) => id === version);
      return found
        ? [200, ok({ id: found.id, metadata: {}, resources: { bindings: found.bindings, script: {} } })]
        : [404, notFound(10000, "no such version")];
    }
  }
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
    account.namespaces.set(id, json().title);
    return [200, ok({ id, title: json().title })];
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
    const { sql } = json() as { sql: string };
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
      account.databases.set(uuid, { name: json().name, db: new DatabaseSync(":memory:") });
      return [200, ok({ uuid, name: json().name })];
    }
    const found = all.find(({ uuid, name }) => uuid === named || name === decodeURIComponent(named ?? ""));
    if (found && method === "GET") return [200, ok(found)];
    if (!found) return [404, notFound(7404, "The database could not be found.")];
  }
  account.unknown.push(`${method} ${at}`);
  return [404, notFound(10000, `The stand-in does not answer ${method} ${at}`)];
};

/** Starts a stand-in account; `baseUrl` is for CLOUDFLARE_API_BASE_URL. */
export const startAccount = async () => {
  const account: Account = {
    workers: new Map(),
    namespaces: new Map(),
    databases: new Map(),
    values: new Map(),
    requests: [],
    unknown: [],
    failUploadsOf: new Set(),
  };
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk);
    account.requests.push(`${request.method} ${request.url}`);
    const [status, answer] = route(account, request, Buffer.concat(chunks));
    // A KV value is answered as it is; everything else as JSON.
    if (typeof answer === "string") response.writeHead(status).end(answer);
    else response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    account,
    baseUrl: `http://127.0.0.1:${port}/client/v4`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
