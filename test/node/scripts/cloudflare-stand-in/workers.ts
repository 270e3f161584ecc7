// The stand-in's Workers API (./account.ts): uploads with their bindings, versions,
// deployments, and what a deploy sets beside the code.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  type Account,
  type Answer,
  type Binding,
  type Call,
  notFound,
  ok,
  servingBindings,
  type Worker,
} from "./state";

/** The metadata part of a Worker upload (multipart/form-data). */
const uploadMetadata = (request: IncomingMessage, body: Buffer): { bindings: Binding[]; keep_bindings?: string[] } => {
  const boundary = /boundary=(.+)$/.exec(request.headers["content-type"] ?? "")?.[1] ?? "";
  for (const part of body.toString("latin1").split(`--${boundary}`)) {
    if (/name="metadata"/.test(part)) return JSON.parse(part.slice(part.indexOf("\r\n\r\n") + 4).trimEnd());
  }
  throw new Error("an upload without metadata");
};

/** The answer to a request of the Workers API. */
export const workersAnswer = (account: Account, { at, method, request, body, json }: Call): Answer => {
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
      worker.deployed = json<{ versions: Worker["deployed"] }>().versions;
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
  return undefined;
};
