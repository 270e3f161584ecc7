// Who may call /mcp: an API key, as at /v1, or an access token that the sign-in Worker issued
// for this host's /mcp (RFC 8707), which stands for the key it was signed in with. Either
// way the key itself is re-checked on every call, as every key is (src/keys/authenticate.ts):
// a revoked or expired key ends its tokens within the same bound. A 401 here points to the
// sign-in (RFC 9728), for the hosts that know no other way in.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError, unavailable } from "../http/errors";
import { isScope } from "../keys/api-key";
import { admitApiKey, admitKey, bearerToken, countUnverifiedAttempt, type Refusals } from "../keys/authenticate";
import { logDependencyFault, withDeadline } from "../lib/faults";
import { resourceOf, signInChallenge, signInService } from "./sign-in";

/** The sign-in Worker answers from its KV in milliseconds; one that takes this long is failing. */
const AUTH_DEADLINE_MS = 3000;

/** RFC 6750's challenge to an access token that the sign-in Worker does not know (or no longer). */
const UNKNOWN_TOKEN_CHALLENGE =
  'Bearer realm="petstore", error="invalid_token", error_description="The access token is not valid"';
const TOKEN_REFUSALS: Refusals = {
  invalid: "The access token's API key is no longer valid.",
  expired: (instant) => `The access token's API key expired at ${instant}.`,
};

/** A token the sign-in Worker does not know counts, as an unknown key does, against the address. */
const refuseToken = async (c: Context<AppEnv>) => {
  await countUnverifiedAttempt(c);
  throw new ApiError("unauthorized", "The access token is not valid, or has expired; sign in again.", {
    "WWW-Authenticate": UNKNOWN_TOKEN_CHALLENGE,
  });
};

const admitToken = async (c: Context<AppEnv>, token: string) => {
  const service = signInService(c);
  if (!service) throw unavailable("Signing in");
  let granted: Awaited<ReturnType<typeof service.validateToken>>;
  try {
    granted = await withDeadline(service.validateToken(resourceOf(c), token), AUTH_DEADLINE_MS, "AUTH");
  } catch (error) {
    logDependencyFault(c, "AUTH", error, "503");
    throw unavailable("Signing in");
  }
  if (!granted) return refuseToken(c);
  await admitKey(c, granted.props.keyHash, TOKEN_REFUSALS, granted.scope.filter(isScope));
};

/** /mcp's authentication: a key (no ':' in it) or an access token (userId:grantId:secret). */
export const requireKeyOrToken = createMiddleware<AppEnv>(async (c, next) => {
  try {
    const token = bearerToken(c);
    await (token.includes(":") ? admitToken(c, token) : admitApiKey(c, token));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      error.headers["WWW-Authenticate"] = `${error.headers["WWW-Authenticate"]}, ${signInChallenge(c)}`;
    }
    throw error;
  }
  await next();
});
