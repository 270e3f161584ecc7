// The sign-in Worker's answer to a fault of a store it depends on (OAUTH_KV, API_KEYS): 503
// with Retry-After, within the key check's deadline; a page at /authorize, OAuth's JSON error
// elsewhere (RFC 6749's temporarily_unavailable), never a 500.
import { OAuthError } from "@cloudflare/workers-oauth-provider";
import { UNAVAILABLE_RETRY_AFTER_S } from "../core/error-codes";
import { PAGE_HEADERS, problemPage } from "./sign-in-page";

const MESSAGE = `Signing in is unavailable for a moment; try again in ${UNAVAILABLE_RETRY_AFTER_S} seconds.`;
const RETRY_AFTER = { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) };

/** For the library to answer from its token endpoint (its tokenExchangeCallback). */
export const unavailableError = () =>
  new OAuthError("temporarily_unavailable", { description: MESSAGE, statusCode: 503, headers: RETRY_AFTER });

/** The 503 of a request to `path`. */
export const unavailableAnswer = (path: string) =>
  path === "/authorize"
    ? new Response(problemPage(MESSAGE), { status: 503, headers: { ...PAGE_HEADERS, ...RETRY_AFTER } })
    : Response.json(
        { error: "temporarily_unavailable", error_description: MESSAGE },
        { status: 503, headers: { ...RETRY_AFTER, "Cache-Control": "no-store" } },
      );
