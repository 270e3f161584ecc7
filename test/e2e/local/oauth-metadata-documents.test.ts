import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { type Harness, startHarness } from "../helpers/harness";
import { authorizeUrl, pkce } from "../helpers/sign-in-over-http";

// An app whose client_id is the URL of its Client ID Metadata Document: the sign-in Worker
// reads it as the CIMD draft says, over real HTTPS from a server of this test, and takes only
// a 200 of application/json (src/auth-server/metadata-fetch.ts). That it follows no redirect
// is shown on the function itself (test/worker/mcp/metadata-fetch.test.ts): locally, the
// runtime's outbound service follows a redirect before the Worker sees the answer.

const REDIRECT_URI = "http://127.0.0.1:9/callback";
/** What the page says of a document it could not take. */
const UNREADABLE = "The app&#39;s metadata document could not be read.";

let api: Harness;
let origin: string;
let server: ReturnType<typeof createServer>;

/** A private-use callback whose scheme is not a reverse domain name (RFC 8252 section 7.1). */
const ONE_WORD_SCHEME_URI = "petstore-agent://callback";

/** The document for the client_id `url`: itself, with the callback above (or `redirectUri`). */
const documentFor = (url: string, redirectUri = REDIRECT_URI) =>
  JSON.stringify({
    client_id: url,
    client_name: "Metadata test app",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  });

/** The document for `url`, padded with an unknown member to `bytes` bytes. */
const documentOfSize = (url: string, bytes: number) => {
  const bare = documentFor(url);
  const padding = bytes - bare.length - ',"padding":""'.length;
  return `${bare.slice(0, -1)},"padding":"${"x".repeat(padding)}"}`;
};

/** How each path answers: a document, and the same as another type, and with another status; and at its size limit. */
const answers: Record<string, (url: string) => { status: number; headers: Record<string, string>; body: string }> = {
  "/app.json": (url) => ({ status: 200, headers: { "Content-Type": "application/json" }, body: documentFor(url) }),
  "/html.json": (url) => ({ status: 200, headers: { "Content-Type": "text/html" }, body: documentFor(url) }),
  "/created.json": (url) => ({ status: 201, headers: { "Content-Type": "application/json" }, body: documentFor(url) }),
  "/one-word-scheme.json": (url) => ({
    status: 200,
    headers: { "Content-Type": "application/json" },
    body: documentFor(url, ONE_WORD_SCHEME_URI),
  }),
  "/5120.json": (url) => ({
    status: 200,
    headers: { "Content-Type": "application/json" },
    body: documentOfSize(url, 5120),
  }),
  "/5121.json": (url) => ({
    status: 200,
    headers: { "Content-Type": "application/json" },
    body: documentOfSize(url, 5121),
  }),
};

beforeAll(async () => {
  const { certPath, keyPath } = inject("loopbackTls");
  server = createServer({ cert: readFileSync(certPath), key: readFileSync(keyPath) }, (request, response) => {
    const url = new URL(request.url ?? "/", origin);
    const answer = answers[url.pathname]?.(url.href) ?? { status: 404, headers: {}, body: "" };
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  api = await startHarness({ vars: { ACCESS_LOG: "off" } });
});
afterAll(async () => {
  server?.close();
  await api?.close();
});

const pageFor = async (path: string, redirectUri = REDIRECT_URI) => {
  const clientId = `${origin}${path}`;
  const page = await fetch(
    authorizeUrl(api.origin, { clientId, redirectUri, challenge: pkce().challenge, scope: "read" }),
    { redirect: "manual" },
  );
  return { status: page.status, html: await page.text() };
};

it("takes a document served 200 as application/json: the page names the app", async () => {
  const { status, html } = await pageFor("/app.json");
  expect(status).toBe(200);
  expect(html).toContain("Metadata test app");
});

it.each(["/html.json", "/created.json"])("takes no answer but a 200 of application/json (%s)", async (path) => {
  const { status, html } = await pageFor(path);
  expect(status).toBe(400);
  expect(html).toContain(UNREADABLE);
});

it("takes a document of 5 KiB, and not one byte more", async () => {
  expect((await pageFor("/5120.json")).status).toBe(200);
  const { status, html } = await pageFor("/5121.json");
  expect(status).toBe(400);
  expect(html).toContain(UNREADABLE);
});

it("refuses a document's private-use callback whose scheme is not a reverse domain name, linking nowhere", async () => {
  const { status, html } = await pageFor("/one-word-scheme.json", ONE_WORD_SCHEME_URI);
  expect(status).toBe(400);
  expect(html).toContain("petstore-agent");
  expect(html).not.toContain('id="back"');
  expect(html).not.toContain("<form");
});
