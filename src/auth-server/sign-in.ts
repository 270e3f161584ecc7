// GET and POST /authorize: the sign-in of an app (an agent's host) with an API key. The
// library checks the request (client, exact redirect URI, PKCE S256, resource) and binds the
// form to the browser that opened it, once; this file shows the page and checks the key.
import {
  AuthorizationError,
  authorizationErrorRedirect,
  CimdFetchError,
  type OAuthAuthorizationServer,
} from "@cloudflare/workers-oauth-provider";
import { SCOPES, type Scope } from "../keys/api-key";
import { type KeyVerdict, verifyKey } from "../keys/verify";
import { readBounded } from "../lib/bounded-body";
import { RATE_LIMIT_PERIOD_S } from "../lib/limiters";
import type { AuthEnv, GrantProps } from "./env";
import { indexGrant, newGrantUser } from "./grant-index";
import { REFRESH_TOKEN_TTL_S } from "./lifetimes";
import { redirectSchemeProblem } from "./redirect-schemes";
import { askedScopes, grantedScopes } from "./scopes";
import { PAGE_HEADERS, problemPage, signInPage } from "./sign-in-page";
import { THROTTLED_SIGN_IN } from "./strangers";
import { unavailableAnswer } from "./unavailable";

type OAuthApi = ReturnType<OAuthAuthorizationServer<AuthEnv>["getOAuthApi"]>;
type AuthRequest = Awaited<ReturnType<OAuthApi["parseAuthRequest"]>>;

/** The page, with the library's headers (its cookies) and this page's own, whose policy includes the library's. */
const page = (html: string, status: number, ...headerSets: Headers[]) => {
  const headers = new Headers();
  for (const set of headerSets) for (const [name, value] of set) headers.append(name, value);
  for (const [name, value] of Object.entries(PAGE_HEADERS)) headers.set(name, value);
  return new Response(html, { status, headers });
};

const redirect = (location: string, headers = new Headers()) => {
  headers.set("Location", location);
  return new Response(null, { status: 302, headers });
};

const PKCE_REQUIRED = "PKCE is required: send a code_challenge (S256).";

/** The page of a request refused before its form is shown, linking back to the app with the error. */
const refusedRequest = (request: AuthRequest, code: "invalid_scope" | "invalid_request", description: string) => {
  const { redirectUri, state, issuer } = request;
  const back = authorizationErrorRedirect({ redirectUri, state: state || undefined, issuer }, code, description);
  return page(problemPage(description, back), 400);
};

/** The scopes `request` asks for, or the page that refuses it before any form: a redirect scheme, a scope this API does not have, or no PKCE. */
const checked = (request: AuthRequest): { asked: Scope[] } | { refusal: Response } => {
  // A redirect URI this server sends no code to is not linked back to either.
  const badScheme = redirectSchemeProblem(request.redirectUri);
  if (badScheme) return { refusal: page(problemPage(badScheme), 400) };
  const asked = askedScopes(request.scope);
  if ("unknown" in asked) return { refusal: refusedRequest(request, "invalid_scope", asked.unknown) };
  // The library asks PKCE of public clients only; every client here uses it, S256 (OAuth 2.1).
  if (!request.codeChallenge) return { refusal: refusedRequest(request, "invalid_request", PKCE_REQUIRED) };
  return { asked };
};

/**
 * The page for `request`, with a fresh handle (each works once), and why the last try failed;
 * or, for a request that asks for a scope this API does not have or sends no PKCE, the page
 * that refuses it, with no form.
 */
const showPage = async (
  oauth: OAuthApi,
  request: AuthRequest,
  { status = 200, problem, narrower, headers = [] }: PageState = {},
) => {
  const check = checked(request);
  if ("refusal" in check) return check.refusal;
  const { asked } = check;
  const details = await oauth.describeConsent(request);
  const consent = await oauth.beginConsent(request);
  return page(signInPage(details, asked, consent.handle, { problem, narrower }), status, ...headers, consent.headers);
};

/** How the page is shown again: its status, why the last try failed, the scopes a key offered that are fewer than asked, and headers to add. */
type PageState = { status?: number; problem?: string; narrower?: Scope[]; headers?: Headers[] };

/** What the page says of a refused verdict, with its status and headers. */
type Refused = Exclude<Exclude<KeyVerdict, { admitted: true }>["refusal"], "unavailable">;
const REFUSED: Record<Refused, [number, string, Record<string, string>?]> = {
  invalid: [401, "That is not a valid API key."],
  expired: [401, "That API key has expired."],
  throttled: [429, THROTTLED_SIGN_IN, { "Retry-After": String(RATE_LIMIT_PERIOD_S) }],
};

/** The page's 403 words for a key that may do none of what the app asks for. */
const noneGranted = (asked: readonly string[]) =>
  `That API key does not have the ${asked.map((scope) => `'${scope}'`).join(" or ")} scope this app asks for; sign in with a key that has it.`;

/** The most bytes a sign-in form may send: its three fields take a few hundred. */
export const MAX_FORM_BYTES = 16_384;

/**
 * The form's fields; undefined if the request is not a form (whose body ./worker.ts reads to
 * its end before the answer), "too large" past MAX_FORM_BYTES.
 */
const formOf = async (request: Request) => {
  const contentType = request.headers.get("Content-Type") ?? "";
  const type = contentType.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") return undefined;
  const body = await readBounded(request, MAX_FORM_BYTES);
  if (body === undefined) return "too large";
  try {
    return await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return undefined;
  }
};

const submitted = async (oauth: OAuthApi, env: AuthEnv, request: Request) => {
  const form = await formOf(request);
  if (form === "too large") return page(problemPage(`The sign-in form may be at most ${MAX_FORM_BYTES} bytes.`), 413);
  if (!form) return page(problemPage("The sign-in form is sent as a form, from the sign-in page."), 415);
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  if (field("decision") === "deny") {
    const denied = await oauth.denyConsent(request, field("handle"));
    return new Response(null, { status: 302, headers: denied.headers });
  }
  // First the form's binding to this browser (it works once), then the key.
  const approved = await oauth.approveConsent(request, field("handle"));
  // The one key check, read afresh, each attempt counted against the address as an unknown key's.
  const verdict = await verifyKey(env, field("key"), Date.now(), { from: request, fresh: true });
  if (!verdict.admitted) {
    if (verdict.refusal === "unavailable") return unavailableAnswer("/authorize");
    const [status, reason, headers] = REFUSED[verdict.refusal];
    return showPage(oauth, approved.request, {
      status,
      problem: reason,
      headers: [approved.headers, new Headers(headers)],
    });
  }
  const { key } = verdict;
  const asked = askedScopes(approved.request.scope);
  if ("unknown" in asked) return refusedRequest(approved.request, "invalid_scope", asked.unknown);
  const scopes = grantedScopes(key.scopes ?? SCOPES, asked);
  if (scopes.length === 0) {
    return showPage(oauth, approved.request, { status: 403, problem: noneGranted(asked), headers: [approved.headers] });
  }
  // A key that may do less than the app asked for is said so before anything is granted: the
  // person allows the fewer scopes, knowingly, with the key again (it is never written into the page).
  if (scopes.length < asked.length && field("narrower") !== scopes.join(" ")) {
    return showPage(oauth, approved.request, { narrower: scopes, headers: [approved.headers] });
  }
  const props: GrantProps = { keyHash: key.hash };
  const userId = newGrantUser();
  // A grant lives at most as long as its refresh token, after its code's ten minutes.
  await indexGrant(env.OAUTH_KV, key.hash, userId, REFRESH_TOKEN_TTL_S + 3600);
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request,
    userId,
    // Nothing reads a grant's metadata, which the library stores unencrypted: none is kept.
    metadata: {},
    scope: scopes,
    props,
  });
  return redirect(redirectTo, approved.headers);
};

/**
 * A request the library refused: a page that says why, never a redirect before the person
 * has acted (RFC 9700 section 4.11.2: an app registers its own redirect URI, and an
 * automatic redirect to it would make this host an open redirector). Where the app's
 * redirect URI was verified, the page links back to it with the error.
 */
const refused = (error: unknown) => {
  if (error instanceof AuthorizationError) return page(problemPage(error.description, error.redirectTo), 400);
  if (error instanceof CimdFetchError) return page(problemPage("The app's metadata document could not be read."), 400);
  throw error;
};

export const signIn = async (oauth: OAuthApi, env: AuthEnv, request: Request) => {
  try {
    if (request.method === "POST") return await submitted(oauth, env, request);
    const parsed = await oauth.parseAuthRequest(request);
    // A HEAD gets the page's status and headers, and stores nothing: no form is begun for a page nobody reads.
    if (request.method === "HEAD") {
      const check = checked(parsed);
      return "refusal" in check ? check.refusal : page("", 200);
    }
    return await showPage(oauth, parsed);
  } catch (error) {
    return refused(error);
  }
};
