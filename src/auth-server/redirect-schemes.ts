// Where a native app (an agent's host on a computer) may be sent its code: besides https, and
// http on a loopback host (the library's rules), a private-use scheme (RFC 8252 section 7.1),
// which the app has the system open it with. Any app on the computer may claim a scheme, so
// the code is bound to the app that asked by PKCE, which every sign-in here needs. RFC 8252
// asks for a scheme made of a domain name its publisher controls, reversed (com.example.app:),
// so that two apps do not claim one by chance; a few hosts named theirs by one word before
// that was asked, and are listed by name.
import { excerpt } from "../lib/display-text";

/** The one-word schemes of hosts that register them as they are: Cursor's, VS Code's (and its Insiders build's). */
export const ONE_WORD_HOST_SCHEMES = ["cursor", "vscode", "vscode-insiders"];

/** The scheme of a redirect URI that is neither https nor http, lower case; undefined for those, or a URI that does not parse. */
export const privateUseScheme = (redirectUri: string): string | undefined => {
  const scheme = URL.parse(redirectUri)?.protocol.slice(0, -1).toLowerCase();
  return scheme === undefined || scheme === "https" || scheme === "http" ? undefined : scheme;
};

/** Why `redirectUri` may not receive a code here, for a private-use scheme that is not a reverse domain name; else undefined. */
export const redirectSchemeProblem = (redirectUri: string): string | undefined => {
  const scheme = privateUseScheme(redirectUri);
  if (scheme === undefined || scheme.includes(".") || ONE_WORD_HOST_SCHEMES.includes(scheme)) return undefined;
  return `The redirect URI's scheme '${excerpt(scheme)}' is not a reverse domain name (RFC 8252 section 7.1): name it after a domain its publisher controls, as com.example.app:/callback.`;
};
