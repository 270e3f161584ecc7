// An app's registration (RFC 7591) read by the API's JSON rules before the library sees it:
// a member given twice (JSON.parse keeps the last, another reader the first: two
// `redirect_uris`, say), a nesting deeper than the API allows, or a number read as an integer it
// is not, is refused; and so is a `client_name` that would show as something other than it
// holds, and a redirect URI of a private-use scheme that is not a reverse domain name
// (./redirect-schemes.ts). Whatever name an app registered, the page and `npm run apps` show it cut to a width.
import { excerpt, hasMisleadingCharacter } from "../lib/display-text";
import { describeJsonProblem, findJsonProblem } from "../lib/json-ambiguity";
import { redirectSchemeProblem } from "./redirect-schemes";

/** The most characters of an app's name that the sign-in page and `npm run apps` show. */
export const SHOWN_NAME_CHARACTERS = 64;

/** An app's name as it is shown: cut past SHOWN_NAME_CHARACTERS. */
export const shownAppName = (name: string) => excerpt(name, SHOWN_NAME_CHARACTERS);

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Why the registration `body` is refused, or undefined; a text that is not JSON is left to the library, which refuses it. */
export const registrationProblem = (body: Uint8Array): string | undefined => {
  let text: string;
  let value: unknown;
  try {
    text = utf8.decode(body);
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const problem = findJsonProblem(text, value);
  if (problem) return describeJsonProblem(problem, { text: "The client metadata", member: "Member" });
  const { client_name: name, redirect_uris: redirectUris } = (value ?? {}) as {
    client_name?: unknown;
    redirect_uris?: unknown;
  };
  for (const uri of Array.isArray(redirectUris) ? redirectUris : []) {
    const refused = typeof uri === "string" ? redirectSchemeProblem(uri) : undefined;
    if (refused) return refused;
  }
  if (typeof name === "string" && (hasMisleadingCharacter(name) || !name.isWellFormed())) {
    return "client_name cannot hold control characters, bidirectional controls, line or paragraph separators, or lone surrogates.";
  }
  return undefined;
};
