// A stand-in for one Cloudflare account's REST API, as far as wrangler's deploys of the two
// Workers reach it: Workers (./workers.ts), KV namespaces and D1 databases (./storage.ts),
// each created on request and kept in memory. Wrangler is pointed at it with
// CLOUDFLARE_API_BASE_URL; its every request is recorded, and one it does not know is
// answered 404 and named in `unknown`, so that a test fails on it.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ACCOUNT_ID, type Account, type Call, notFound } from "./state";
import { storageAnswer } from "./storage";
import { workersAnswer } from "./workers";

export { ACCOUNT_ID, type Account, servingBindings } from "./state";

const route = (account: Account, request: IncomingMessage, body: Buffer): [number, unknown] => {
  const url = new URL(request.url ?? "/", "http://stand-in");
  const prefix = `/client/v4/accounts/${ACCOUNT_ID}`;
  const at = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
  const method = request.method ?? "GET";
  const call: Call = { at, method, url, request, body, json: () => JSON.parse(body.toString() || "null") };
  const answer = workersAnswer(account, call) ?? storageAnswer(account, call);
  if (answer) return answer;
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
