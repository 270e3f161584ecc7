// The page at /authorize: which app asks, where its access goes, for which scopes, and a
// field for the API key that grants it. Everything the app said of itself (its name, its
// domain) comes from its registration or its metadata document: escaped, as all of it is.
import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import { escapeHtml } from "../document/reference-page/html";
import type { Scope } from "../keys/api-key";
import { shownAppName } from "./client-metadata";
import { privateUseScheme } from "./redirect-schemes";

/**
 * The page's own headers, beside the library's (which bind the form to this browser and
 * forbid framing): no script, style only inline, and nothing of it cached or referred on.
 */
export const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
};

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:34em;margin:3em auto;padding:0 1em}.problem{color:#a00}";

/**
 * The sign-in page for `details` and the scopes asked for (./scopes.ts), posting `handle`
 * back; `problem` says why the last try failed, and `narrower`, that the key given may do
 * fewer scopes than asked, which posting the form again with the key grants.
 */
export const signInPage = (
  details: ConsentDescription,
  asked: readonly Scope[],
  handle: string,
  { problem, narrower }: { problem?: string; narrower?: readonly Scope[] } = {},
) => {
  const name = escapeHtml(shownAppName(details.clientName));
  const who = details.clientDomain
    ? `published by <strong>${escapeHtml(details.clientDomain)}</strong>`
    : "registered by itself: its name is not verified";
  const scopes = asked.length > 0 ? asked.join(", ") : "whatever your key may do";
  const scheme = privateUseScheme(details.redirectUri);
  // An app on this computer: at a loopback address, or the one that opens the scheme's links (RFC 8252).
  const destination =
    scheme === undefined
      ? `<strong id="redirect-host">${escapeHtml(details.redirectHost)}</strong>`
      : `the app on this computer that opens <strong id="redirect-scheme">${escapeHtml(scheme)}:</strong> links`;
  const local =
    details.redirectIsLoopback || scheme !== undefined
      ? "<p><strong>Access goes to an app on this computer.</strong> Go on only if you just started signing in from it.</p>"
      : "";
  return `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Allow ${name} to use the Petstore API</title><style>${STYLE}</style>
<h1>Allow <span id="client">${name}</span> to use the Petstore API?</h1>
<p>The app (${who}) asks for <strong id="scopes">${scopes}</strong>. Its access will be sent to ${destination}.</p>
${local}${problem ? `<p class="problem" role="alert">${escapeHtml(problem)}</p>` : ""}${narrower ? `<p class="problem" role="alert" id="narrower">That key may do only <strong>${narrower.join(", ")}</strong>, less than this app asks for. Enter it again and Allow to give the app ${narrower.join(", ")} only; or Deny.</p>` : ""}
<form method="post">
<input type="hidden" name="handle" value="${escapeHtml(handle)}">${narrower ? `\n<input type="hidden" name="narrower" value="${narrower.join(" ")}">` : ""}
<p><label>Your API key<br><input type="password" name="key" autocomplete="off" required size="60"></label></p>
<p>The app gets its own access, no more than your key may do, and it ends when the key does; the key stays with you.</p>
<p><button name="decision" value="allow">Allow</button> <button name="decision" value="deny" formnovalidate>Deny</button></p>
</form></html>`;
};

/**
 * A page that says why no sign-in can go on; with a link back to the app (`back`, its
 * verified redirect URI with the error) for the person to follow, never followed for them.
 */
export const problemPage = (problem: string, back?: string) => {
  const link = back
    ? `\n<p><a id="back" href="${escapeHtml(back)}">Back to the app at ${escapeHtml(new URL(back).host)}</a></p>`
    : "";
  return `<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>Sign-in failed</title><style>${STYLE}</style>\n<h1>Sign-in failed</h1>\n<p class="problem" role="alert">${escapeHtml(problem)}</p>${link}</html>`;
};
