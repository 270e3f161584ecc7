import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
  UnauthorizedError as V2UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { allowedCode } from "../helpers/allow-sign-in";
import { type Harness, startHarness } from "../helpers/harness";
import { MemoryHost } from "../helpers/oauth-host";
import { exchangeCode, openSignInPage, pkce, postSignInForm, registerClient } from "../helpers/sign-in-over-http";

// A host on the official SDK's client that holds a `read` grant and calls a tool that needs
// `write`. The v1 client, and LangChain's MCP adapters built on it, refresh first, without
// naming a scope, on the 403 insufficient_scope: that refresh is refused (src/auth-server/
// step-up.ts), so they drop their tokens and open a new sign-in for every scope, and the call
// then succeeds (with the refresh answered, they stopped: "Server returned 403 after trying
// upscoping"). The v2 client opens a new sign-in at once.

const REDIRECT_URI = "http://127.0.0.1:9/callback";
let api: Harness;
beforeAll(async () => {
  api = await startHarness({ vars: { ACCESS_LOG: "off" } });
});
afterAll(() => api?.close());

/** A key that may write, and a host holding a grant of `read` from a sign-in with it that asked for no more. */
const hostWithReadGrant = async (label: string) => {
  const key = await api.issueKey({ label });
  const clientId = await registerClient(api.origin, REDIRECT_URI);
  const { verifier, challenge } = pkce();
  const authorization = { clientId, redirectUri: REDIRECT_URI, challenge, scope: "read" };
  const { handle, cookie } = await openSignInPage(api.origin, authorization);
  const signedIn = await postSignInForm(
    api.origin,
    { handle: handle ?? "", key, decision: "allow" },
    { Cookie: cookie, Origin: api.origin },
  );
  const exchanged = await exchangeCode(api.origin, signedIn.headers.get("Location") ?? "", authorization, verifier);
  const tokens = (await exchanged.json()) as OAuthTokens;
  expect(tokens.scope).toBe("read");
  // The v2 client's host serves the v1 client too: the two ask a host the same.
  const host = new MemoryHost(REDIRECT_URI);
  host.client = { client_id: clientId, redirect_uris: [REDIRECT_URI] };
  host.saved = tokens;
  return { key, host };
};

it("steps up from a read grant to a write call through a new sign-in, with the official SDK's v1 client", async () => {
  const { key, host } = await hostWithReadGrant("a v1 host's key");

  const transport = new StreamableHTTPClientTransport(new URL(`${api.origin}/mcp`), {
    authProvider: host as unknown as OAuthClientProvider,
  });
  const client = new Client({ name: "petstore-e2e-v1-host", version: "1.0.0" });
  await client.connect(transport);
  const create = () => client.callTool({ name: "create_pet", arguments: { name: "Stepped", categoryId: 1 } });
  // The 403, the refresh refused, a new sign-in opened for every scope: the SDK says so as UnauthorizedError.
  await expect(create()).rejects.toBeInstanceOf(UnauthorizedError);
  expect(host.authorizationUrl?.searchParams.get("scope")).toBe("read write");
  await transport.finishAuth(await allowedCode(api.origin, (host.authorizationUrl as URL).href, key));
  expect(host.saved?.scope).toBe("read write");
  const created = (await create()) as { isError?: boolean; structuredContent?: unknown };
  expect(created.isError).toBeFalsy();
  expect(created.structuredContent).toMatchObject({ name: "Stepped" });
  await client.close();
});

it("steps up from a read grant to a write call through a new sign-in, with the official SDK's v2 client", async () => {
  const { key, host } = await hostWithReadGrant("a v2 host's key");
  const transport = new V2Transport(new URL(`${api.origin}/mcp`), { authProvider: host });
  const client = new V2Client({ name: "petstore-e2e-v2-host", version: "1.0.0" });
  await client.connect(transport);
  const create = () => client.callTool({ name: "create_pet", arguments: { name: "Stepped too", categoryId: 1 } });
  await expect(create()).rejects.toBeInstanceOf(V2UnauthorizedError);
  expect(host.authorizationUrl?.searchParams.get("scope")).toBe("read write");
  const code = await allowedCode(api.origin, (host.authorizationUrl as URL).href, key);
  await transport.finishAuth(new URLSearchParams({ code, iss: api.origin }));
  const created = (await create()) as { isError?: boolean; structuredContent?: unknown };
  expect(created.isError).toBeFalsy();
  await client.close();
});

it("steps up from a read grant to a write call through a new sign-in, with LangChain's MCP adapters", async () => {
  const { key, host } = await hostWithReadGrant("a LangChain host's key");
  const serverUrl = `${api.origin}/mcp`;
  const client = new MultiServerMCPClient({
    mcpServers: {
      petstore: { url: serverUrl, transport: "http", authProvider: host as unknown as OAuthClientProvider },
    },
    throwOnLoadError: true,
  });
  const createPet = (await client.getTools()).find(({ name }) => name.endsWith("create_pet"));
  const create = () => createPet?.invoke({ name: "Stepped by LangChain", categoryId: 1 });
  // Its tool call fails with the v1 client's UnauthorizedError, once the new sign-in is opened.
  await expect(create()).rejects.toThrow(/Unauthorized/);
  expect(host.authorizationUrl?.searchParams.get("scope")).toBe("read write");
  // The host completes the sign-in as the SDK does for a transport it holds no handle to.
  expect(
    await auth(host, {
      serverUrl,
      authorizationCode: await allowedCode(api.origin, (host.authorizationUrl as URL).href, key),
    }),
  ).toBe("AUTHORIZED");
  expect(host.saved?.scope).toBe("read write");
  expect(JSON.stringify(await create())).toContain("Stepped by LangChain");
  await client.close();
});
