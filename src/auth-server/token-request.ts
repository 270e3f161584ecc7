// A confidential client that authenticates with HTTP Basic and repeats its client_id in the
// form, as Python's `mcp` client (2.3) and every host built on it does. RFC 6749 section 2.3
// forbids more than one way of authenticating in a request; a client_id alone authenticates
// nothing (section 4.1.3 has clients that do not authenticate send it), so one that repeats
// the Basic credentials' id is dropped here, before the library, which would count it as a
// second way. Any other client_id, or a client_secret beside Basic, goes on as sent, for the
// library to refuse.
import { boundedBody } from "./bounded-body";

/** Far more than any request of the token endpoint holds (a code, a verifier, a refresh token). */
export const MAX_TOKEN_REQUEST_BYTES = 16_384;

/** The client id of `Authorization: Basic` (RFC 6749 section 2.3.1: form-encoded, then Base64), if that is what it holds. */
const basicClientId = (authorization: string | null) => {
  const encoded = /^basic[\t ]+([A-Za-z0-9+/]+={0,2})$/i.exec(authorization?.trim() ?? "")?.[1];
  if (encoded === undefined) return undefined;
  try {
    const credentials = atob(encoded);
    const separator = credentials.indexOf(":");
    return separator === -1 ? undefined : decodeURIComponent(credentials.slice(0, separator).replaceAll("+", " "));
  } catch {
    return undefined;
  }
};

const tooLarge = () =>
  Response.json(
    { error: "invalid_request", error_description: `A token request may be at most ${MAX_TOKEN_REQUEST_BYTES} bytes.` },
    { status: 413, headers: { "Cache-Control": "no-store" } },
  );

/** The token request to go on with: without a client_id that repeats Basic's; or the 413 of one too large to read. */
export const withoutRepeatedClientId = async (request: Request): Promise<Request | Response> => {
  const basicId = basicClientId(request.headers.get("Authorization"));
  if (basicId === undefined || request.method !== "POST") return request;
  const body = await boundedBody(request, MAX_TOKEN_REQUEST_BYTES);
  if (body === undefined) return tooLarge();
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const repeatsBasic = form.getAll("client_id").length === 1 && form.get("client_id") === basicId;
  if (!repeatsBasic || form.has("client_secret")) return new Request(request, { body });
  form.delete("client_id");
  return new Request(request, { body: form.toString() });
};
