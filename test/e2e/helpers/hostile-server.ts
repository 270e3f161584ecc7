import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in for the API that misbehaves as a proxy, a captive portal or a wrong address
// can, for the client to be tried against over real HTTP. Each behaviour is a path prefix
// before /v1 (`<origin>/<behaviour>/v1/pets`). Every answer allows any origin, so that a
// page in Chromium reads what the client in it does.

const PET = { id: 1, name: "Rex", categoryId: 1, status: "available" };
const HUGE_BYTES = 150 * 1024 * 1024;

export type HostileServer = {
  origin: string;
  /** The bytes of the huge answer written before the client stopped reading, per request. */
  hugeBytesSent: number[];
  /** The query of each request for an empty page that points to another. */
  emptyPagesServed: string[];
  /** The x-d1-bookmark of each request, in order. */
  bookmarksSent: (string | undefined)[];
  close: () => Promise<void>;
};

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "*",
  "Access-Control-Expose-Headers": "*",
};

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  response.writeHead(status, { "Content-Type": "application/json", ...CORS, ...headers }).end(JSON.stringify(body));

/** Writes an endless list of pets, up to HUGE_BYTES, as fast as the client reads; resolves with the bytes written. */
const streamHuge = (response: ServerResponse) =>
  new Promise<number>((resolve) => {
    response.writeHead(200, { "Content-Type": "application/json", ...CORS });
    const chunk = Buffer.from(`${JSON.stringify(PET)},`.repeat(1024));
    let sent = 0;
    const write = () => {
      while (sent < HUGE_BYTES) {
        sent += chunk.length;
        if (!response.write(chunk)) return void response.once("drain", write);
      }
      response.end("{}]");
    };
    response.on("close", () => resolve(sent));
    response.write("[");
    write();
  });

/**
 * Starts the stand-in. `api`, when given, is the real API's origin: under `/lost/` the
 * stand-in relays to it, but cuts the body of the first 201 of each Idempotency-Key (an
 * answer lost on the way: the pet exists, the client cannot read it).
 */
export const startHostileServer = async (api?: string): Promise<HostileServer> => {
  const hugeBytesSent: number[] = [];
  const emptyPagesServed: string[] = [];
  const bookmarksSent: (string | undefined)[] = [];
  const cutKeys = new Set<string>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://stand.in");
    const [, behaviour, ...rest] = url.pathname.split("/");
    bookmarksSent.push(request.headers["x-d1-bookmark"] as string | undefined);
    if (request.method === "OPTIONS")
      return response.writeHead(204, { ...CORS, "Access-Control-Allow-Methods": "*" }).end();
    switch (behaviour) {
      case "huge":
        return void hugeBytesSent.push(await streamHuge(response));
      case "null":
        return json(response, 200, null);
      case "object":
        return json(response, 200, rest.length > 2 ? [PET] : { pets: [PET] });
      case "repeat":
        return json(response, 200, [PET], { Link: `</repeat/v1/pets?cursor=same>; rel="next"` });
      case "bookmark":
        return json(response, 200, [PET], { "x-d1-bookmark": "00000000-00000000-00000000-not-a-bookmark" });
      case "redirect":
        return response.writeHead(307, { ...CORS, Location: `http://${request.headers.host}/plain/v1/pets` }).end();
      case "plain":
        return json(response, 200, [{ ...PET, name: "Served over plain HTTP" }]);
      case "badlink":
        return request.method === "POST"
          ? json(response, 201, PET, { Deprecation: "@1", Link: '<http://[::1>; rel="successor-version"' })
          : json(response, 200, [PET], { Link: '<http://[::1>; rel="next"' });
      case "empty":
        emptyPagesServed.push(url.search);
        return json(response, 200, [], { Link: `<?cursor=${emptyPagesServed.length}>; rel="next"` });
      case "echo":
        return json(response, 401, {
          code: "unauthorized",
          message: `Refused ${request.headers.authorization}`,
          status: 401,
        });
      case "teapot":
        return json(response, 418, { code: "teapot", message: "Short and stout.", status: 418 });
      case "lost": {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const relayed = await fetch(new URL(`/${rest.join("/")}${url.search}`, api), {
          method: request.method,
          headers: Object.entries(request.headers).filter(([name]) => name !== "host") as [string, string][],
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        });
        const body = await relayed.text();
        const key = String(request.headers["idempotency-key"]);
        const cut = relayed.status === 201 && !cutKeys.has(key);
        cutKeys.add(key);
        return response
          .writeHead(relayed.status, { ...CORS, "Content-Type": "application/json" })
          .end(cut ? body.slice(0, 6) : body);
      }
      default:
        return json(response, 404, { code: "not_found", message: "No such behaviour.", status: 404 });
    }
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error) => response.destroy(error));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hugeBytesSent,
    emptyPagesServed,
    bookmarksSent,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
