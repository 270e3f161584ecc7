import { connect, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { expect, inject } from "vitest";
import type { Pet } from "../../../src/schemas";
import { buildRequest, createPetThrough, type RequestOptions } from "../../helpers/api-client";
import { expectConformance } from "../../helpers/conformance";
import { expectMcpConformance } from "../../helpers/mcp-conformance";

export { expectError, expectUnavailable, nextLink, nextQuery, walkPages } from "../../helpers/api-client";

// What the e2e tests share: the server under test and its key (test/e2e/helpers/global-setup.ts),
// requests to it, and the checks that every file makes.

export const baseUrl = inject("baseUrl");
export const apiKey = inject("apiKey");
export const throughPrism = inject("throughPrism") ?? false;
const versionOverride = inject("versionOverride");
/** Routes a request to a Worker version that takes no traffic yet (scripts/deploy.ts smoke-tests it so). */
const VERSION_OVERRIDE_HEADER = "Cloudflare-Workers-Version-Overrides";

export type { Pet } from "../../../src/schemas";

/**
 * `origin`: another server than the one under test (one that a test starts for itself).
 * `outsideContract`: why the answer is meant to fall outside openapi.json (then not checked).
 */
type ApiInit = RequestOptions & { origin?: string; outsideContract?: string };

/**
 * Through Prism, the problems that it found in an answer, which it lists in `sl-violations`
 * (with those of the request, which the tests break on purpose): none is allowed.
 */
const expectNoResponseViolations = (method: string, url: URL, response: Response) => {
  const violations: { location: string[] }[] = JSON.parse(response.headers.get("sl-violations") ?? "[]");
  const inResponse = violations.filter(({ location }) => location[0] === "response");
  expect(inResponse, `Prism: the answer to ${method} ${url.pathname} departs from openapi.json`).toEqual([]);
};

/** A request to the server under test (test/helpers/api-client.ts), with the test key unless `key` names another one or null. */
export const api = async (
  path: string,
  { key = apiKey, origin = baseUrl, outsideContract, ...options }: ApiInit = {},
) => {
  const request = buildRequest(new URL(path, origin), { key, ...options });
  if (versionOverride) request.headers.set(VERSION_OVERRIDE_HEADER, versionOverride);
  const sent = request.clone();
  const response = await fetch(request);
  if (throughPrism) expectNoResponseViolations(request.method, new URL(request.url), response);
  else if (!outsideContract) await expectConformance(sent, response);
  // /mcp's answers are held to MCP's official schemas instead (test/helpers/mcp-conformance.ts).
  if (new URL(request.url).pathname === "/mcp") await expectMcpConformance(sent.method, await sent.text(), response);
  return response;
};

/**
 * Every pet these tests create is named so: on a live deployment (npm run smoke) they
 * stay among real pets, and this is how to tell them apart.
 */
export const petName = (purpose: string) => `smoke-test ${purpose} ${crypto.randomUUID().slice(0, 8)}`;

export const createPet = (purpose: string, fields: Partial<Omit<Pet, "id" | "name">> = {}): Promise<Pet> =>
  createPetThrough(api, { name: petName(purpose), categoryId: 1, ...fields });

/** One HTTP/1.1 request as bytes, with Host and the test key, and a Content-Length when it has a body. */
export const httpRequest = (method: string, path: string, headers: Record<string, string> = {}, body = "") => {
  const { host } = new URL(baseUrl);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, `Authorization: Bearer ${apiKey}`];
  if (versionOverride) lines.push(`${VERSION_OVERRIDE_HEADER}: ${versionOverride}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body}`);
};

/**
 * Opens a connection, lets `send` write to it exactly what it wants, and parses what the
 * server answers until it closes the connection: for tests where the framing matters,
 * which fetch hides. A reset or a write the server refused fails the exchange.
 */
const rawExchange = (send: (socket: Socket) => Promise<void> | void): Promise<Response[]> =>
  new Promise((resolve, reject) => {
    const { hostname, port, protocol } = new URL(baseUrl);
    // A deployment is served over TLS (npm run smoke), wrangler dev over plain HTTP.
    const socket =
      protocol === "https:"
        ? connectTls({ host: hostname, port: Number(port || 443), servername: hostname, ALPNProtocols: ["http/1.1"] })
        : connect(Number(port), hostname);
    const received: Buffer[] = [];
    socket.on("data", (chunk) => received.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      try {
        resolve(parseResponses(Buffer.concat(received)));
      } catch (error) {
        reject(error);
      }
    });
    socket.setTimeout(30_000, () => socket.destroy(new Error("the server neither answered nor closed")));
    socket.once(protocol === "https:" ? "secureConnect" : "connect", async () => {
      try {
        await send(socket);
      } catch (error) {
        socket.destroy(error as Error);
      }
    });
  });

/** Node's fetch, with each answer checked against openapi.json: for clients that take a `fetch`. */
export const checkedFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  const response = await fetch(request.clone());
  await expectConformance(request, response);
  return response;
};

/** A request's method and target, from its bytes' request line. */
const requestLineOf = (bytes: Buffer) => {
  const [method = "", target = ""] = bytes.subarray(0, bytes.indexOf("\r\n")).toString("latin1").split(" ");
  return { method, target };
};

/** Each answer checked against openapi.json, as api() checks its own, unless the exchange says why not. */
const checkedAgainstDocument = async (requests: Buffer[], responses: Response[], outsideContract?: string) => {
  if (outsideContract) return responses;
  for (const [index, response] of responses.entries()) {
    const { method, target } = requestLineOf(requests[index] ?? Buffer.alloc(0));
    await expectConformance(new Request(new URL(target, baseUrl), { method }), response);
  }
  return responses;
};

/**
 * Sends `requests` back to back on one connection; the last one should say `Connection: close`.
 * `outsideContract`: why the answers are meant to fall outside openapi.json (then not checked).
 */
export const rawHttp = async (requests: Buffer[], { outsideContract }: { outsideContract?: string } = {}) =>
  checkedAgainstDocument(
    requests,
    await rawExchange((socket) => {
      socket.write(Buffer.concat(requests));
    }),
    outsideContract,
  );

/**
 * POSTs a JSON body with Transfer-Encoding: chunked, one chunk at a time, `pauseMs` apart
 * (a slow client), on a connection of its own.
 */
export const chunkedPost = async (path: string, chunks: Buffer[], pauseMs = 0): Promise<Response[]> => {
  const head = httpRequest("POST", path, {
    "Content-Type": "application/json",
    "Transfer-Encoding": "chunked",
    Connection: "close",
  });
  const responses = await rawExchange(async (socket) => {
    const written = (data: Buffer | string) =>
      new Promise<void>((resolve, reject) => socket.write(data, (error) => (error ? reject(error) : resolve())));
    await written(head);
    for (const chunk of chunks) {
      await written(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]));
      if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    await written("0\r\n\r\n");
  });
  return checkedAgainstDocument([head], responses);
};

/** HTTP/1.1 responses (with a Content-Length or chunked) one after the other. */
const parseResponses = (bytes: Buffer): Response[] => {
  const responses: Response[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const headEnd = bytes.indexOf("\r\n\r\n", offset);
    if (headEnd < 0) throw new Error(`an incomplete response head: ${bytes.subarray(offset).toString()}`);
    const [statusLine = "", ...fields] = bytes.subarray(offset, headEnd).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
    if (!status) throw new Error(`not an HTTP/1.1 status line: ${statusLine}`);
    const headers = new Headers(fields.map((field) => field.split(/:\s*(.*)/s, 2) as [string, string]));
    offset = headEnd + 4;
    let body: Buffer;
    if (headers.get("Transfer-Encoding")?.toLowerCase() === "chunked") {
      const chunks: Buffer[] = [];
      for (;;) {
        const sizeEnd = bytes.indexOf("\r\n", offset);
        const size = Number.parseInt(bytes.subarray(offset, sizeEnd).toString(), 16);
        offset = sizeEnd + 2;
        if (!size) break;
        chunks.push(bytes.subarray(offset, offset + size));
        offset += size + 2;
      }
      offset = bytes.indexOf("\r\n", offset) + 2; // the empty trailer
      body = Buffer.concat(chunks);
    } else {
      const length = Number(headers.get("Content-Length") ?? bytes.length - offset);
      body = bytes.subarray(offset, offset + length);
      offset += length;
    }
    responses.push(new Response(body, { status, headers }));
  }
  return responses;
};
