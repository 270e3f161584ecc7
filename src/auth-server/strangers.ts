// What a caller that nobody has admitted may make the sign-in Worker store: a client's
// registration (RFC 7591, kept as long as the library keeps one, 90 days) and the record of
// an authorization request whose page it opens (kept while the page may be posted). Each
// counts against the caller's address on the throttle that unknown keys count on
// (AUTH_FAILURE_LIMITER, as the API's unknown keys and the page's keys do); and a
// registration's metadata is at most 5 KiB, as an app's metadata document is.
import { mayTryUnknown } from "../keys/verify";
import { readBounded } from "../lib/bounded-body";
import { RATE_LIMIT_PERIOD_S } from "../lib/limiters";
import { registrationProblem } from "./client-metadata";
import type { AuthEnv } from "./env";
import { PAGE_HEADERS, problemPage } from "./sign-in-page";

/** The most bytes of client metadata a registration may send: the library's own bound on a metadata document. */
export const MAX_REGISTRATION_BYTES = 5120;

/** The page's words when an address is over the throttle. */
export const THROTTLED_SIGN_IN = "Too many sign-ins from this address; try again in a minute.";

const RETRY_AFTER = { "Retry-After": String(RATE_LIMIT_PERIOD_S) };
const NO_STORE = { "Cache-Control": "no-store" };

const throttled = (path: string) =>
  path === "/authorize"
    ? new Response(problemPage(THROTTLED_SIGN_IN), { status: 429, headers: { ...PAGE_HEADERS, ...RETRY_AFTER } })
    : Response.json(
        { error: "temporarily_unavailable", error_description: THROTTLED_SIGN_IN },
        { status: 429, headers: { ...RETRY_AFTER, ...NO_STORE } },
      );

const tooLarge = () =>
  Response.json(
    {
      error: "invalid_client_metadata",
      error_description: `Client metadata may be at most ${MAX_REGISTRATION_BYTES} bytes.`,
    },
    { status: 413, headers: NO_STORE },
  );

const invalidMetadata = (description: string) =>
  Response.json(
    { error: "invalid_client_metadata", error_description: description },
    { status: 400, headers: NO_STORE },
  );

/**
 * Whether `request` makes this Worker store something for a caller nobody admitted. Hono
 * answers HEAD with GET's handler, so a HEAD of the page stores what its GET does, and counts alike.
 */
const storesForStranger = (request: Request, path: string) =>
  (path === "/authorize" && (request.method === "GET" || request.method === "HEAD")) ||
  (path === "/oauth/register" && request.method === "POST");

/**
 * The request to go on with (a registration's body read, within its bound), or the answer
 * that refuses it: 429 with Retry-After past the throttle, 413 for metadata over the bound,
 * 400 for metadata that breaks the API's JSON rules (./client-metadata.ts).
 */
export const screenStranger = async (env: AuthEnv, request: Request, path: string): Promise<Request | Response> => {
  if (!storesForStranger(request, path)) return request;
  if (!(await mayTryUnknown(env, { from: request }))) return throttled(path);
  if (request.method !== "POST") return request;
  const body = await readBounded(request, MAX_REGISTRATION_BYTES);
  if (body === undefined) return tooLarge();
  const problem = registrationProblem(body);
  return problem === undefined ? new Request(request, { body }) : invalidMetadata(problem);
};
