// OAuth for /mcp, the API Worker's half (docs/mcp.md, "Signing in with OAuth"): the Protected
// Resource Metadata (RFC 9728) that a 401 at /mcp points to, and the authorization server's
// paths on this host, handed to the sign-in Worker (src/auth-server/) over the AUTH binding.
import type { Context } from "hono";
import { type Refusal, unavailable } from "../core/refusal";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { faultContext } from "../http/request-log";
import { newApp } from "../http/router";
import { SCOPES } from "../keys/api-key";
import { logDependencyFault, withDeadline } from "../lib/faults";

/** What the API asks of the sign-in Worker over RPC, as src/auth-server/worker.ts answers. */
export type SignInService = Fetcher & {
  validateToken(
    resource: string,
    token: string,
  ): Promise<{ props: { keyHash: string }; scope: string[]; expiresAt: number } | null>;
  /** That a tool call refused `token` for a scope its grant lacks: its next refresh is a step-up (src/auth-server/step-up.ts). */
  noteStepUp(resource: string, token: string): Promise<void>;
};

/** The sign-in Worker answers from its KV in milliseconds; one that takes this long is failing. */
export const AUTH_DEADLINE_MS = 3000;

/** The sign-in Worker, or undefined where it is not bound (a misconfiguration: 503 for tokens). */
export const signInService = (c: Context<AppEnv>) => {
  const service = c.env.AUTH as Partial<SignInService> | undefined;
  return typeof service?.validateToken === "function" ? (service as SignInService) : undefined;
};

/** The resource that tokens are issued for (RFC 8707): /mcp on the host the request came to. */
export const resourceOf = (c: Context<AppEnv>) => `${new URL(c.req.url).origin}/mcp`;

const METADATA_PATH = "/.well-known/oauth-protected-resource";

const resourceMetadata = (c: Context<AppEnv>) => `resource_metadata="${new URL(c.req.url).origin}${METADATA_PATH}/mcp"`;

/** The scopes to sign in with: every one, whatever the credential held (the sign-in grants those its key may do). */
const EVERY_SCOPE = `scope="${SCOPES.join(" ")}"`;

/** RFC 9728 section 5.1: the parameters that a 401 at /mcp adds to its challenge. */
export const signInChallenge = (c: Context<AppEnv>) => `${resourceMetadata(c)}, ${EVERY_SCOPE}`;

/**
 * MCP's scope challenge (RFC 6750 section 3.1): a tool call whose credential lacks its
 * operation's scope is 403 with `error="insufficient_scope"`, naming every scope to sign in
 * with again, as the 401 does (a host that asked for the lacking one alone would lose the
 * others; the sign-in grants those of them that the key may do), and where, so that a host
 * can ask for them. The Error body is the operation's own refusal.
 */
export const insufficientScope = async (c: Context<AppEnv>, refusal: Refusal) => {
  const token = c.get("accessToken");
  const service = signInService(c);
  // Before the answer, as the host may refresh at once: the sign-in Worker then takes that
  // refresh as a step-up (src/auth-server/step-up.ts). Its failure leaves the answer as it is.
  if (token !== undefined && service) {
    try {
      await withDeadline(service.noteStepUp(resourceOf(c), token), AUTH_DEADLINE_MS, "AUTH");
    } catch (error) {
      logDependencyFault(faultContext(c), "AUTH", error, "403, no step-up noted");
    }
  }
  return new ApiError(refusal.code, refusal.message, {
    "WWW-Authenticate": `Bearer realm="petstore", error="insufficient_scope", ${EVERY_SCOPE}, ${resourceMetadata(c)}`,
  });
};

const protectedResourceMetadata = (c: Context<AppEnv>) => {
  const { origin } = new URL(c.req.url);
  const body = {
    resource: `${origin}/mcp`,
    resource_name: "Petstore API (MCP)",
    resource_documentation: `${origin}/v1/docs`,
    authorization_servers: [origin],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
  };
  // Public, as the API's document is: any page may read it, and caches may keep it an hour.
  return c.json(body, 200, { "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=3600" });
};

/** Hands the request to the sign-in Worker as it came; 503 while that Worker fails. */
const toSignInWorker = async (c: Context<AppEnv>) => {
  const service = signInService(c);
  if (!service) throw unavailable("Signing in");
  try {
    // A copy: the answer of a binding has headers that this app's middleware cannot add to.
    const response = await service.fetch(c.req.raw);
    return new Response(response.body, response);
  } catch (error) {
    logDependencyFault(faultContext(c), "AUTH", error, "503");
    throw unavailable("Signing in");
  }
};

/** The paths of OAuth on the API's host; /mcp itself admits tokens at its door (src/mcp/key-or-token-auth.ts). */
export const signInRoutes = newApp()
  .get(METADATA_PATH, protectedResourceMetadata)
  .get(`${METADATA_PATH}/mcp`, protectedResourceMetadata)
  .get("/.well-known/oauth-authorization-server", toSignInWorker)
  .on(["GET", "POST"], "/authorize", toSignInWorker)
  // Every method: the library answers its own preflights and 405s there.
  .all("/oauth/*", toSignInWorker);
