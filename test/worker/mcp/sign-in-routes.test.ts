import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE_URL, expectError, faultLogLines, send } from "../../helpers/index";
import { SIGN_IN } from "../../helpers/sign-in";

// The API Worker's half of OAuth (src/oauth/protected-resource.ts): the resource's metadata it serves
// itself, and the paths it hands to the sign-in Worker, which answer 503 while that Worker is
// missing or failing, as docs/mcp.md says ("Signing in with OAuth").

/** docs/mcp.md: the resource's metadata may be cached for an hour. */
const METADATA_MAX_AGE_S = 3600;
/** docs/architecture.md: a 503 says `Retry-After: 3`. */
const RETRY_AFTER_S = 3;
const UNAVAILABLE = `Signing in is unavailable for a moment; retry in ${RETRY_AFTER_S} seconds.`;

const get = (path: string, bindings?: Cloudflare.Env) =>
  send(new Request(`${BASE_URL}${path}`), { bindings, outsideContract: SIGN_IN });

/** The paths the API hands to the sign-in Worker, one of each route. */
const HANDED = ["/.well-known/oauth-authorization-server", "/authorize?client_id=x", "/oauth/token"];

describe("the resource's metadata (RFC 9728)", () => {
  it("is served at the well-known path and at its /mcp form, public, for an hour", async () => {
    const { origin } = new URL(BASE_URL);
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get("Access-Control-Allow-Origin"), path).toBe("*");
      expect(answer.headers.get("Cache-Control"), path).toBe(`public, max-age=${METADATA_MAX_AGE_S}`);
      expect(await answer.json(), path).toEqual({
        resource: `${origin}/mcp`,
        resource_name: "Petstore API (MCP)",
        resource_documentation: `${origin}/v1/docs`,
        authorization_servers: [origin],
        scopes_supported: ["read", "write"],
        bearer_methods_supported: ["header"],
      });
    }
  });
});

describe("the sign-in Worker's paths", () => {
  it("are answered by the sign-in Worker, which names this host as the issuer, the scopes and apps' metadata documents", async () => {
    const answer = await get("/.well-known/oauth-authorization-server");
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      issuer: new URL(BASE_URL).origin,
      scopes_supported: ["read", "write"],
      client_id_metadata_document_supported: true,
    });
  });

  it("are 503 where no sign-in Worker is bound, or a binding that is not one: a misconfiguration, not a fault", async () => {
    const { AUTH: _, ...unbound } = env;
    // A Worker bound as AUTH that is not the sign-in Worker: it has no validateToken.
    const stranger = { ...env, AUTH: { fetch: () => Promise.resolve(new Response("not the sign-in Worker")) } };
    for (const bindings of [unbound, stranger] as unknown as Cloudflare.Env[]) {
      const faults = await faultLogLines(async () => {
        for (const path of HANDED) {
          const answer = await get(path, bindings);
          const { message } = await expectError(answer, 503, "unavailable");
          expect(message, path).toBe(UNAVAILABLE);
          expect(answer.headers.get("Retry-After"), path).toBe(String(RETRY_AFTER_S));
        }
      });
      expect(faults).toEqual([]);
    }
  });

  it("are 503 while the sign-in Worker throws, each with the fault line the runbook finds", async () => {
    const failing = {
      ...env,
      AUTH: { validateToken: () => Promise.resolve(null), fetch: () => Promise.reject(new Error("AUTH is down")) },
    } as unknown as Cloudflare.Env;
    const faults = await faultLogLines(async () => {
      for (const path of HANDED) {
        const { message } = await expectError(await get(path, failing), 503, "unavailable");
        expect(message, path).toBe(UNAVAILABLE);
      }
    });
    expect(faults).toHaveLength(HANDED.length);
    for (const fault of faults) {
      expect(fault).toMatchObject({
        message: "dependency fault",
        dependency: "AUTH",
        cause: "AUTH is down",
        outcome: "503",
      });
    }
  });
});
