import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  Client,
  IssuerMismatchError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../../scripts/lib/supervise";
import { hashApiKey } from "../../../src/keys/api-key";
import { connectChromium } from "../helpers/chromium";
import { type Harness, startHarness } from "../helpers/harness";
import { HOST_NAME, MemoryHost, startCallback } from "../helpers/oauth-host";
import { listPetsWith, tokenRequest } from "../helpers/sign-in-over-http";

// OAuth for /mcp end to end, over real HTTP against both Workers (the API, and the sign-in
// Worker of wrangler.auth.toml) in wrangler's test harness: the official v2 client as an
// agent's host that speaks only OAuth, registered both ways, with the sign-in page driven in
// Chromium. The refusals, one by one, are in oauth-refusals.test.ts.

const ROOT = path.resolve(import.meta.dirname, "../../..");

let api: Harness;
let browser: Browser;
let callback: Awaited<ReturnType<typeof startCallback>>;
/** Where the Client ID Metadata Document of test/e2e's host is served, over HTTPS. */
let metadataUrl: string;
let closeMetadata: () => void;

const startMetadataServer = async (redirectUri: string) => {
  const { certPath, keyPath } = inject("loopbackTls");
  const server = createServer({ cert: readFileSync(certPath), key: readFileSync(keyPath) }, (_request, response) => {
    const document = {
      client_id: metadataUrl,
      client_name: HOST_NAME,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
    response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  metadataUrl = `https://localhost:${(server.address() as AddressInfo).port}/oauth/client.json`;
  return () => server.close();
};

beforeAll(async () => {
  [api, browser, callback] = await Promise.all([
    startHarness({ vars: { ACCESS_LOG: "off" } }),
    connectChromium(),
    startCallback(),
  ]);
  closeMetadata = await startMetadataServer(callback.url);
});
afterAll(async () => {
  closeMetadata?.();
  await Promise.all([api?.close(), browser?.close(), callback?.close()]);
});

const modernClient = () =>
  new Client({ name: "petstore-e2e-oauth", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
const transportFor = (host: MemoryHost) =>
  new StreamableHTTPClientTransport(new URL(`${api.origin}/mcp`), { authProvider: host });

/** The sign-in page in Chromium, as its user sees it: what it shows, then Allow with `key`; the callback's query. */
const signInInChromium = async (authorizationUrl: URL, key: string) => {
  const page = await browser.newPage();
  try {
    const answer = await page.goto(authorizationUrl.href);
    const shown = {
      client: await page.textContent("#client"),
      redirectHost: await page.textContent("#redirect-host"),
      scopes: await page.textContent("#scopes"),
      framing: answer?.headers()["content-security-policy"],
    };
    await page.fill('input[name="key"]', key);
    const seen = callback.received.length;
    await Promise.all([page.waitForURL(/\/callback\?/), page.click('button[value="allow"]')]);
    expect(callback.received).toHaveLength(seen + 1);
    return { shown, params: callback.received.at(-1) as URLSearchParams };
  } finally {
    await page.close();
  }
};

/** The host's whole way in: the 401, discovery, registration, the page, the code for tokens. */
const signIn = async (host: MemoryHost, key: string) => {
  await expect(modernClient().connect(transportFor(host))).rejects.toBeInstanceOf(UnauthorizedError);
  const signedIn = await signInInChromium(host.authorizationUrl as URL, key);
  const transport = transportFor(host);
  await transport.finishAuth(signedIn.params);
  const client = modernClient();
  await client.connect(transport);
  return { ...signedIn, client };
};

describe("a host that speaks only OAuth", () => {
  it("is pointed from the 401 at /mcp to the resource's metadata, and from there to the sign-in", async () => {
    const refused = await fetch(`${api.origin}/mcp`, { method: "POST", body: "{}" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toBe(
      `Bearer realm="petstore", resource_metadata="${api.origin}/.well-known/oauth-protected-resource/mcp", scope="read write"`,
    );
    const resource = await fetch(`${api.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(resource.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await resource.json()).toEqual({
      resource: `${api.origin}/mcp`,
      resource_name: "Petstore API (MCP)",
      resource_documentation: `${api.origin}/v1/docs`,
      authorization_servers: [api.origin],
      scopes_supported: ["read", "write"],
      bearer_methods_supported: ["header"],
    });
    const server = await (await fetch(`${api.origin}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: api.origin,
      authorization_endpoint: `${api.origin}/authorize`,
      token_endpoint: `${api.origin}/oauth/token`,
      registration_endpoint: `${api.origin}/oauth/register`,
      revocation_endpoint: `${api.origin}/oauth/token`,
      scopes_supported: ["read", "write"],
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  it("registers itself (RFC 7591), signs in on the page in Chromium, calls tools, refreshes, and loses its access with the key", async () => {
    const key = await api.issueKey({ label: "oauth e2e" });
    const host = new MemoryHost(callback.url);
    const { shown, params, client } = await signIn(host, key);
    expect(host.client?.client_id).not.toMatch(/^https:/);
    expect(shown).toEqual({
      client: HOST_NAME,
      redirectHost: "127.0.0.1",
      scopes: "read, write",
      framing: "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    });
    expect(params.get("iss")).toBe(api.origin);
    const created = await client.callTool({ name: "create_pet", arguments: { name: "OAuth Rex", categoryId: 1 } });
    expect(created.structuredContent).toMatchObject({ name: "OAuth Rex" });

    // The host revokes its access token (RFC 7009): refused at once; the client refreshes and goes on.
    const revoked = host.saved?.access_token as string;
    const revocation = await tokenRequest(api.origin, { token: revoked, client_id: host.client?.client_id as string });
    expect(revocation.status).toBe(200);
    expect((await listPetsWith(api.origin, revoked)).status).toBe(401);
    const listed = await client.callTool({ name: "list_pets", arguments: { limit: 1 } });
    expect(listed.isError).toBeUndefined();
    const refreshed = host.saved?.access_token as string;
    expect(refreshed).not.toBe(revoked);

    // The key revoked: no refresh from then on, and the token refused once the API re-reads the
    // key (a new isolate here; within KNOWN_KEY_TTL_MS, 60 s, in one that holds it).
    await (await api.store("API_KEYS")).delete(await hashApiKey(key));
    const refresh = await tokenRequest(api.origin, {
      grant_type: "refresh_token",
      refresh_token: host.saved?.refresh_token as string,
      client_id: host.client?.client_id as string,
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
    await api.restart({ vars: { ACCESS_LOG: "off" } });
    const refused = await listPetsWith(api.origin, refreshed);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "unauthorized" });
    await client.close();
  });

  it("signs in with a Client ID Metadata Document as its client_id, and refuses a callback with a forged iss", async () => {
    const key = await api.issueKey({ label: "oauth e2e cimd" });
    const host = new MemoryHost(callback.url, metadataUrl);
    await expect(modernClient().connect(transportFor(host))).rejects.toBeInstanceOf(UnauthorizedError);
    expect((host.authorizationUrl as URL).searchParams.get("client_id")).toBe(metadataUrl);
    const { params } = await signInInChromium(host.authorizationUrl as URL, key);

    const forged = new URLSearchParams(params);
    forged.set("iss", "https://attacker.example");
    await expect(transportFor(host).finishAuth(forged)).rejects.toBeInstanceOf(IssuerMismatchError);

    const transport = transportFor(host);
    await transport.finishAuth(params);
    const client = modernClient();
    await client.connect(transport);
    const listed = await client.callTool({ name: "list_pets", arguments: { limit: 1 } });
    expect(listed.isError).toBeUndefined();
    await client.close();
  });
});

describe("docs/mcp.md's local OAuth recipe, as written", () => {
  it("signs the MCP Inspector's CLI in from a terminal: the address it prints, the page in a browser, then the tools", async () => {
    const docs = readFileSync(path.join(ROOT, "docs/mcp.md"), "utf8");
    const command =
      /```sh\n(MCP_AUTO_OPEN_ENABLED=true npx @modelcontextprotocol\/inspector --cli \S+ --method tools\/list)\n```/.exec(
        docs,
      )?.[1];
    expect(command).toBeDefined();
    const key = await api.issueKey({ label: "inspector signs in" });
    // On this run's own ports and home: its callback, and where it keeps what it was given.
    const home = mkdtempSync(path.join(tmpdir(), "petstore-inspector-"));
    const env = {
      ...process.env,
      HOME: home,
      MCP_OAUTH_CALLBACK_URL: `http://127.0.0.1:${await freePort()}/oauth/callback`,
      // No browser of its own to open: the address it prints is what the reader follows.
      BROWSER: "false",
      PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
    };
    const cli = spawn("bash", ["-c", (command ?? "").replace("http://localhost:8787", api.origin)], { cwd: ROOT, env });
    let stdout = "";
    let stderr = "";
    cli.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => cli.on("exit", resolve));
    const address = await new Promise<string>((resolve, reject) => {
      cli.stderr.on("data", (chunk) => {
        stderr += chunk;
        const printed = /Please navigate to: (\S+)/.exec(stderr)?.[1];
        if (printed) resolve(printed);
      });
      cli.on("exit", () => reject(new Error(`the CLI ended without an address:\n${stderr}`)));
    });
    const page = await browser.newPage();
    try {
      await page.goto(address);
      await page.fill('input[name="key"]', key);
      await Promise.all([page.waitForURL(/\/oauth\/callback\?/), page.click('button[value="allow"]')]);
    } finally {
      await page.close();
    }
    expect(await exited).toBe(0);
    const { tools } = JSON.parse(stdout) as { tools: { name: string }[] };
    expect(tools.map(({ name }) => name)).toEqual(["list_pets", "create_pet", "get_pet"]);
    rmSync(home, { recursive: true, force: true });
  });
});
