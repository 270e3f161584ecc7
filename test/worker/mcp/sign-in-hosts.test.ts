import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../helpers/index";
import { postMcp, toolCall } from "../../helpers/mcp-calls";
import { authorizeQuery, fetchApi, formPost, pkcePair, signInCode } from "../../helpers/sign-in";

// The callbacks that hosts register, as their documentation gives them (docs/mcp.md, "Hosts"):
// each registered, signed in with a key, its code exchanged and its token used at /mcp. A
// native host's private-use scheme (RFC 8252 section 7.1) is taken when it is a reverse domain
// name or one of the hosts' one-word schemes, and refused otherwise, at registration and at
// the page (src/auth-server/redirect-schemes.ts).

const HOSTS: [string, string[]][] = [
  ["Claude", ["https://claude.ai/api/mcp/auth_callback"]],
  ["ChatGPT", ["https://chatgpt.com/connector_platform_oauth_redirect"]],
  ["Cursor", ["cursor://anysphere.cursor-mcp/oauth/callback"]],
  ["Visual Studio Code", ["http://127.0.0.1:33418/", "https://vscode.dev/redirect"]],
  ["A native app", ["com.example.petstore-agent:/oauth/callback"]],
];

const register = (name: string, redirectUris: string[]) =>
  fetchApi("/oauth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: "none" }),
  });

let key: string;
beforeAll(async () => {
  key = await createApiKey("hosts' sign-ins");
});

describe("each host's documented callback", () => {
  it.each(HOSTS)("%s registers, signs in, gets a token and calls a tool", async (name, redirectUris) => {
    const registered = await register(name, redirectUris);
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    for (const redirectUri of redirectUris) {
      const { code, verifier } = await signInCode(clientId, key, "read", redirectUri);
      expect(code).not.toBe("");
      const exchanged = await fetchApi(
        "/oauth/token",
        formPost({
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri,
          client_id: clientId,
          code_verifier: verifier,
        }),
      );
      expect(exchanged.status).toBe(200);
      const { access_token: token } = (await exchanged.json()) as { access_token: string };
      expect((await postMcp(token, toolCall("list_pets", { limit: 1 }))).status).toBe(200);
    }
  });

  it("of a private-use scheme shows the person the scheme, and says the app is on this computer", async () => {
    const cursor = "cursor://anysphere.cursor-mcp/oauth/callback";
    const { client_id: clientId } = (await (await register("Cursor", [cursor])).json()) as { client_id: string };
    const { challenge } = await pkcePair();
    const page = await (await fetchApi(`/authorize?${authorizeQuery(clientId, challenge, "read", cursor)}`)).text();
    expect(page).toContain('opens <strong id="redirect-scheme">cursor:</strong> links');
    expect(page).toContain("Access goes to an app on this computer.");
  });
});

describe("a private-use scheme that is not a reverse domain name", () => {
  it("is refused at registration, beside a callback that would be taken too", async () => {
    for (const redirectUris of [["myapp://callback"], ["https://app.example/callback", "petstore:/callback"]]) {
      const refused = await register("Careless app", redirectUris);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_client_metadata" });
    }
  });
});
