// A request to the token endpoint, read before the library sees it, for two rules the
// library lacks:
// - A confidential client that authenticates with HTTP Basic and repeats its client_id in
//   the form, as Python's `mcp` client (2.3) and every host built on it does. RFC 6749
//   section 2.3 forbids more than one way of authenticating; a client_id alone proves nothing
//   (section 4.1.3 has clients that do not authenticate send it), so one that repeats Basic's
//   id is dropped. Another client_id goes on, for the library to refuse, as does a
//   client_secret beside Basic, a second way whether or not the client_id stays.
// - A refresh token used a second time, and a code whose PKCE check fails: each ends its
//   grant (./grant-revocations.ts).
// - A refresh that would have to widen its grant: refused, for the host to sign in again (./step-up.ts).
import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { readBounded } from "../lib/bounded-body";
import type { AuthEnv } from "./env";
import { grantOf, type RefreshGrant, revokedForFailedPkce, revokedForReuse } from "./grant-revocations";
import { isStepUp } from "./step-up";

/** Far more than any request of the token endpoint holds (a code, a verifier, a refresh token). */
export const MAX_TOKEN_REQUEST_BYTES = 16_384;

/** The client id of `Authorization: Basic` (RFC 6749 section 2.3.1: form-encoded, then Base64), if that is what it holds. */
const basicClientId = (authorization: string | null) => {
  const encoded = /^basic[\t ]+([A-Za-z0-9+/]+={0,2})$/i.exec(authorization ?? "")?.[1];
  if (encoded === undefined) return undefined;
  try {
    const credentials = atob(encoded);
    const separator = credentials.indexOf(":");
    return separator === -1 ? undefined : decodeURIComponent(credentials.slice(0, separator).replaceAll("+", " "));
  } catch {
    return undefined;
  }
};

const refusal = (status: number, error: string, description: string) =>
  Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store" } });

/** The token request to go on with, or the answer that refuses it first. */
export const preparedTokenRequest = async (
  env: AuthEnv,
  oauth: OAuthHelpers,
  request: Request,
): Promise<Request | Response> => {
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (request.method !== "POST" || type !== "application/x-www-form-urlencoded") return request;
  const body = await readBounded(request, MAX_TOKEN_REQUEST_BYTES);
  if (body === undefined) {
    return refusal(413, "invalid_request", `A token request may be at most ${MAX_TOKEN_REQUEST_BYTES} bytes.`);
  }
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const refreshToken = form.get("refresh_token");
  const named =
    form.get("grant_type") === "refresh_token" && refreshToken && (await grantOf<RefreshGrant>(env, refreshToken));
  if (named && (await revokedForReuse(env, oauth, named))) {
    return refusal(400, "invalid_grant", "This refresh token was used already: its access is revoked; sign in again.");
  }
  if (named && (await isStepUp(env, named.grantId, named.grant.scope ?? [], form.get("scope")))) {
    return refusal(400, "invalid_grant", "A refresh keeps its grant's scopes: sign in again to be granted more.");
  }
  if (form.get("grant_type") === "authorization_code" && (await revokedForFailedPkce(env, oauth, form))) {
    return refusal(400, "invalid_grant", "Invalid PKCE code_verifier: the code is used up; sign in again.");
  }
  const basicId = basicClientId(request.headers.get("Authorization"));
  const repeatsBasic = form.getAll("client_id").length === 1 && form.get("client_id") === basicId;
  if (!repeatsBasic) return new Request(request, { body });
  form.delete("client_id");
  return new Request(request, { body: form.toString() });
};
