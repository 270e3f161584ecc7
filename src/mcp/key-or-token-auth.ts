// Who may call /mcp: an API key, as at /v1, or an access token that the sign-in Worker issued
// for this host's /mcp (RFC 8707), which stands for the key it was signed in with. A key is
// told from a token by its own prefix (ps_live_, ps_test_). Either way the key itself goes
// through the one key check (src/keys/verify.ts) on every call: a revoked or expired key ends
// its tokens within the same bound. A 401 here points to the sign-in (RFC 9728), for the
// hosts that know no other way in.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { unavailable } from "../core/refusal";
import type { AppEnv } from "../env";
import {
  admit,
  admitApiKey,
  BEARER_CHALLENGES,
  bearerToken,
  keyCheckContextOf,
  type Refusals,
  throttled,
} from "../http/api-key-auth";
import { ApiError } from "../http/errors";
import { isApiKeyCredential, isScope } from "../keys/api-key";
import { mayTryUnknown, rememberVerified, verifiedLately, verifyKeyHash } from "../keys/verify";
import { logDependencyFault, withDeadline } from "../lib/faults";
import { AUTH_DEADLINE_MS, resourceOf, signInChallenge, signInService } from "../oauth/protected-resource";

declare module "hono" {
  interface ContextVariableMap {
    /** The access token the call came with, when it came with one rather than a key. */
    accessToken: string;
  }
}

/**
 * Longer than any access token the sign-in Worker issues (userId:grantId:secret, 82
 * characters; 114 for a grant made when the user id was the key's hash): refused without
 * asking it, after it was counted.
 */
export const MAX_ACCESS_TOKEN_LENGTH = 256;

/** RFC 6750's challenge to an access token that the sign-in Worker does not know (or no longer). */
const UNKNOWN_TOKEN_CHALLENGE =
  'Bearer realm="petstore", error="invalid_token", error_description="The access token is not valid"';
const TOKEN_REFUSALS: Refusals = {
  invalid: "The access token's API key is no longer valid.",
  expired: (instant) => `The access token's API key expired at ${instant}.`,
  unknown: "unknown access tokens",
  challenge: BEARER_CHALLENGES.invalid,
};

const unknownToken = () =>
  new ApiError("unauthorized", "The access token is not valid, or has expired; sign in again.", {
    "WWW-Authenticate": UNKNOWN_TOKEN_CHALLENGE,
  });

/**
 * An access token: counted against the address first, unless this isolate verified it lately,
 * as an unknown key is; then asked of the sign-in Worker, and its key checked.
 */
const admitToken = async (c: Context<AppEnv>, token: string) => {
  const checkContext = keyCheckContextOf(c);
  const verified = verifiedLately("token", token);
  if (!verified && !(await mayTryUnknown(c.env, checkContext))) throw throttled(TOKEN_REFUSALS.unknown);
  if (token.length > MAX_ACCESS_TOKEN_LENGTH) throw unknownToken();
  const service = signInService(c);
  if (!service) throw unavailable("Signing in");
  let granted: Awaited<ReturnType<typeof service.validateToken>>;
  try {
    granted = await withDeadline(service.validateToken(resourceOf(c), token), AUTH_DEADLINE_MS, "AUTH");
  } catch (error) {
    logDependencyFault(checkContext, "AUTH", error, "503");
    throw unavailable("Signing in");
  }
  if (!granted) throw unknownToken();
  const now = Date.now();
  // The token was counted (or known): its key, which no one guessed, is not counted again.
  const verdict = await verifyKeyHash(c.env, granted.props.keyHash, now, { requestId: checkContext.requestId });
  admit(c, verdict, now, TOKEN_REFUSALS, granted.scope.filter(isScope));
  c.set("accessToken", token);
  if (!verified) rememberVerified("token", token, granted.props.keyHash);
};

/** /mcp's authentication: a key, or an access token. */
export const requireKeyOrToken = createMiddleware<AppEnv>(async (c, next) => {
  try {
    const token = bearerToken(c);
    await (isApiKeyCredential(token) ? admitApiKey(c, token) : admitToken(c, token));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      error.headers["WWW-Authenticate"] = `${error.headers["WWW-Authenticate"]}, ${signInChallenge(c)}`;
    }
    throw error;
  }
  await next();
});
