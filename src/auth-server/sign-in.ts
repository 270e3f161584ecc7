// GET and POST /authorize: the sign-in of an app (an agent's host) with an API key. The
// library checks the request (client, exact redirect URI, PKCE S256, resource) and binds the
// form to the browser that opened it, once; this file shows the page and checks the key.
import { AuthorizationError, CimdFetchError, type OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { isScope } from "../keys/api-key";
import type { AuthEnv, GrantProps } from "./env";
import { checkKey } from "./key-check";
import { PAGE_HEADERS, problemPage, signInPage } from "./sign-in-page";

type OAuthApi = ReturnType<OAuthAuthorizationServer<AuthEnv>["getOAuthApi"]>;
type AuthRequest = Awaited<ReturnType<OAuthApi["parseAuthRequest"]>>;

/** The page, with the library's headers (its cookies) and this page's own, whose policy includes the library's. */
const page = (html: string, status: number, ...headerSets: Headers[]) => {
  const headers = new Headers();
  for (const set of headerSets) for (const [name, value] of set) headers.append(name, value);
  for (const [name, value] of Object.entries(PAGE_HEADERS)) headers.set(name, value);
  return new Response(html, { status, headers });
};

/** The page for `request`, with a fresh handle (each works once), and why the last try failed. */
const showPage = async (
  oauth: OAuthApi,
  request: AuthRequest,
  status: number,
  problem?: string,
  ...more: Headers[]
) => {
  const details = await oauth.describeConsent(request);
  const consent = await oauth.beginConsent(request);
  return page(signInPage(details, consent.handle, problem), status, ...more, consent.headers);
};

const redirect = (location: string, headers = new Headers()) => {
  headers.set("Location", location);
  return new Response(null, { status: 302, headers });
};

const submitted = async (oauth: OAuthApi, env: AuthEnv, request: Request) => {
  const form = await request.formData();
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
  const asked = approved.request.scope.filter(isScope);
  const verdict = await checkKey(env, request, field("key"), asked, Date.now());
  if (!verdict.admitted) return showPage(oauth, approved.request, verdict.status, verdict.reason, approved.headers);
  const props: GrantProps = { keyHash: verdict.hash };
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request,
    userId: verdict.hash,
    metadata: { label: verdict.record.label },
    scope: verdict.scopes,
    props,
  });
  return redirect(redirectTo, approved.headers);
};

/**
 * A request the library refused: back to the app with the error when its redirect URI was
 * verified; otherwise a page, never a redirect to an address nobody verified.
 */
const refused = (error: unknown) => {
  if (error instanceof AuthorizationError && error.redirectTo) return redirect(error.redirectTo);
  if (error instanceof AuthorizationError) return page(problemPage(error.description), 400);
  if (error instanceof CimdFetchError) return page(problemPage("The app's metadata document could not be read."), 400);
  throw error;
};

export const signIn = async (oauth: OAuthApi, env: AuthEnv, request: Request) => {
  try {
    if (request.method === "POST") return await submitted(oauth, env, request);
    return await showPage(oauth, await oauth.parseAuthRequest(request), 200);
  } catch (error) {
    return refused(error);
  }
};
