import { auth, createMCPClient, UnauthorizedError } from "@ai-sdk/mcp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { allowedCode } from "../helpers/allow-sign-in";
import { type Harness, startHarness } from "../helpers/harness";
import { MemoryHost } from "../helpers/oauth-host";

// The AI SDK's MCP client (@ai-sdk/mcp) as a host holds it: it signs in through the page (a
// `read` key: the page says so and grants `read`) and lists and calls the tools. It answers a
// 401 by signing in, but not a 403 insufficient_scope: a write call fails, and the host signs
// in again for every scope itself (`auth` with the scope). That sign-in refreshes first, which
// is refused (src/auth-server/step-up.ts), so it opens a new sign-in; with a key that may
// write, the call then succeeds.

const REDIRECT_URI = "http://127.0.0.1:9/callback";
let api: Harness;
beforeAll(async () => {
  api = await startHarness({ vars: { ACCESS_LOG: "off" } });
});
afterAll(() => api?.close());

it("signs in through the page, lists the tools, and on a write call's 403 signs in again for every scope when the host asks", async () => {
  const serverUrl = `${api.origin}/mcp`;
  const host = new MemoryHost(REDIRECT_URI);
  // The host as the AI SDK's provider type has it (its types are its own copy of the SDK's).
  const provider = host as unknown as Parameters<typeof auth>[0];
  const connect = () => createMCPClient({ transport: { type: "http", url: serverUrl, authProvider: provider } });
  const readKey = await api.issueKey({ label: "an AI SDK host's read key", scopes: ["read"] });
  await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
  const first = host.authorizationUrl as URL;
  expect(first.searchParams.get("scope")).toBe("read write");
  expect(
    await auth(provider, { serverUrl, authorizationCode: await allowedCode(api.origin, first.href, readKey) }),
  ).toBe("AUTHORIZED");
  expect(host.saved?.scope).toBe("read");

  const client = await connect();
  try {
    const tools = await client.tools();
    expect(Object.keys(tools).toSorted()).toEqual(["create_pet", "get_pet", "list_pets"]);
    const create = () =>
      tools.create_pet?.execute?.(
        { name: "By the AI SDK", categoryId: 1 },
        { toolCallId: "step-up", messages: [], context: {} },
      );
    // The 403 ends the call; no sign-in is opened.
    await expect(create()).rejects.toThrow(/403/);
    expect(host.authorizationUrl).toBe(first);

    const writeKey = await api.issueKey({ label: "an AI SDK host's write key", scopes: ["read", "write"] });
    expect(await auth(provider, { serverUrl, scope: "read write" })).toBe("REDIRECT");
    const second = host.authorizationUrl as URL;
    expect(second).not.toBe(first);
    expect(second.searchParams.get("scope")).toBe("read write");
    const code = await allowedCode(api.origin, second.href, writeKey);
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe("AUTHORIZED");
    expect(host.saved?.scope).toBe("read write");
    expect(JSON.stringify(await create())).toContain("By the AI SDK");
  } finally {
    await client.close();
  }
});
