// A host that a tool call refused for a scope its token lacks (403 insufficient_scope at /mcp)
// steps up: it signs in again for more. Some hosts first refresh, and a refresh cannot widen a
// grant (RFC 6749 section 6: a refresh may not ask for a scope the grant lacks): answered with
// a token of the same scopes, such a host calls again, is refused again, and stops. So a
// refresh that asks for a scope its grant lacks, or that comes within five minutes of its
// grant's refusal at /mcp (the v1 SDK and the hosts built on it refresh without naming a
// scope), gets no token: `invalid_grant`, which the official SDK's clients answer with a new
// sign-in (the standard's `invalid_scope` ends theirs with an error: docs/mcp.md, "Stepping up",
// says what each host does).
import type { AuthEnv } from "./env";

/** How long after a refusal for scope at /mcp a refresh of the grant is taken as a step-up. */
export const STEP_UP_WINDOW_S = 300;

const stepUpKey = (grantId: string) => `step-up:${grantId}`;

/** Records that the grant of `token` (userId:grantId:secret, a token the API validated) was refused a scope at /mcp. */
export const noteStepUp = async (env: AuthEnv, token: string, now = Date.now()) => {
  const grantId = token.split(":")[1];
  // The instant, read against the clock: KV's expiry only clears the record some time after.
  if (grantId) await env.OAUTH_KV.put(stepUpKey(grantId), String(now), { expirationTtl: STEP_UP_WINDOW_S * 2 });
};

/**
 * Whether the refresh of `grantId`, whose grant holds `granted`, is a step-up that no refresh
 * can give: it asks for a scope the grant lacks, or comes soon after a refusal for scope.
 */
export const isStepUp = async (
  env: AuthEnv,
  grantId: string,
  granted: readonly string[],
  asked: string | null,
  now = Date.now(),
) => {
  const wider = (asked ?? "").split(" ").some((scope) => scope !== "" && !granted.includes(scope));
  if (wider) return true;
  const noted = await env.OAUTH_KV.get(stepUpKey(grantId));
  return noted !== null && now - Number(noted) < STEP_UP_WINDOW_S * 1000;
};
