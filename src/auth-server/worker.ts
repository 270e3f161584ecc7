// The sign-in Worker (wrangler.auth.toml): the OAuth 2.1 authorization server through which
// agents' hosts that speak only OAuth reach /mcp (docs/mcp.md). It has no route of its own:
// the API Worker hands it /authorize, /oauth/* and /.well-known/oauth-authorization-server on
// the API's host, and asks it over RPC whether an access token is valid. A Worker apart, as
// the library is half again the API's whole bundle (docs/architecture.md).

import { WorkerEntrypoint } from "cloudflare:workers";
import { discardBody } from "../lib/bounded-body";
import { logDependencyFault } from "../lib/faults";
import type { AuthEnv, GrantProps } from "./env";
import { strictMetadataFetch } from "./metadata-fetch";
import { serversByOrigin, TOKEN_PATH } from "./servers";
import { signIn } from "./sign-in";
import { noteStepUp } from "./step-up";
import { type Faults, guardStores } from "./stores";
import { screenStranger } from "./strangers";
import { preparedTokenRequest } from "./token-request";
import { unavailableAnswer } from "./unavailable";

// The library fetches apps' metadata documents with the global fetch, and nothing else does here.
globalThis.fetch = strictMetadataFetch(globalThis.fetch.bind(globalThis));

/** One server per origin the API is served at (./servers.ts). */
const serverFor = serversByOrigin();

/** The request as the library is to see it (./strangers.ts, ./token-request.ts), or the answer that refuses it first. */
const prepared = async (env: AuthEnv, request: Request, path: string) => {
  const admitted = await screenStranger(env, request, path);
  if (admitted instanceof Response || path !== TOKEN_PATH) return admitted;
  return preparedTokenRequest(env, serverFor(new URL(request.url).origin).getOAuthApi(env), admitted);
};

export default class AuthServer extends WorkerEntrypoint<AuthEnv> {
  override async fetch(request: Request) {
    const answer = await this.answerOf(request);
    // Whatever was not read of the body, read to its end before the answer (src/lib/bounded-body.ts):
    // a refusal that did not need it (the throttle's 429, the library's 405) included.
    await discardBody(request);
    return answer;
  }

  /**
   * Every request runs on its own guarded stores (./stores.ts): a fault of one, whatever the
   * library made of it, is answered 503 with Retry-After.
   */
  private async answerOf(request: Request) {
    const url = new URL(request.url);
    const server = serverFor(url.origin);
    const faults: Faults = { causes: [] };
    const env = guardStores(this.env, faults);
    let answer: Response | undefined;
    try {
      const ready = await prepared(env, request, url.pathname);
      if (ready instanceof Response) answer = ready;
      else if (url.pathname === "/authorize") answer = await signIn(server.getOAuthApi(env), env, ready);
      else answer = await server.fetch(ready, env, this.ctx);
    } catch (error) {
      if (faults.causes.length === 0) throw error;
    }
    if (faults.causes.length === 0 && answer) return answer;
    logDependencyFault({}, "OAUTH_KV", faults.causes.at(-1), "503");
    return unavailableAnswer(url.pathname);
  }

  /** What the API asks of a bearer token at /mcp: its grant's key and scopes, or null; a store's fault rejects. */
  validateToken(resource: string, token: string) {
    const env = guardStores(this.env, { causes: [] });
    return serverFor(new URL(resource).origin).validateToken<GrantProps>(resource, token, env);
  }

  /** That a tool call refused `token` (valid for `resource`) for a scope: recorded for its grant's next refresh. */
  async noteStepUp(resource: string, token: string) {
    if (await this.validateToken(resource, token)) await noteStepUp(guardStores(this.env, { causes: [] }), token);
  }
}
