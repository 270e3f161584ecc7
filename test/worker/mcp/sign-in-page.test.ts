import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import { describe, expect, it } from "vitest";
import { PAGE_HEADERS, problemPage, signInPage } from "../../../src/auth-server/sign-in-page";

// The sign-in page and the page of a sign-in that cannot go on (docs/mcp.md, "The page"),
// to the byte: what a person reads there decides what an app gets. Served, driven in
// Chromium and refused over HTTP: test/e2e/local/oauth.test.ts and oauth-refusals.test.ts.

const STYLE =
  "<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34em;margin:3em auto;padding:0 1em}.problem{color:#a00}</style>";

const registered: ConsentDescription = {
  clientId: "abc",
  clientName: `Tom's <b>"app"</b> & co`,
  redirectUri: "https://app.example/cb",
  redirectHost: "app.example",
  redirectIsLoopback: false,
  scope: [],
};

describe("the sign-in page", () => {
  it("is sent with no script, inline style only, unframed, unreferred and of its declared type", () => {
    expect(PAGE_HEADERS).toEqual({
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
    });
  });

  it("names a registered app as unverified, escaped, and where its access goes; with no scope asked, what the key may do", () => {
    const name = "Tom&#39;s &lt;b&gt;&quot;app&quot;&lt;/b&gt; &amp; co";
    expect(signInPage(registered, [], `h"1`)).toBe(`<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Allow ${name} to use the Petstore API</title>${STYLE}
<h1>Allow <span id="client">${name}</span> to use the Petstore API?</h1>
<p>The app (registered by itself: its name is not verified) asks for <strong id="scopes">whatever your key may do</strong>. Its access will be sent to <strong id="redirect-host">app.example</strong>.</p>

<form method="post">
<input type="hidden" name="handle" value="h&quot;1">
<p><label>Your API key<br><input type="password" name="key" autocomplete="off" required size="60"></label></p>
<p>The app gets its own access, no more than your key may do, and it ends when the key does; the key stays with you.</p>
<p><button name="decision" value="allow">Allow</button> <button name="decision" value="deny" formnovalidate>Deny</button></p>
</form></html>`);
  });

  it("shows an app's name of 64 characters whole, and a longer one cut there, in its title and heading", () => {
    const shown = (clientName: string) => {
      const page = signInPage({ ...registered, clientName }, [], "h");
      return [/<title>Allow (.*) to use/.exec(page)?.[1], /<span id="client">(.*)<\/span>/.exec(page)?.[1]];
    };
    const whole = "🐕".repeat(64);
    expect(shown(whole)).toEqual([whole, whole]);
    expect(shown(`${whole}x`.repeat(80))).toEqual([`${whole}…`, `${whole}…`]);
  });

  it("says that the key given may do fewer scopes than asked, and carries them to the form posted again", () => {
    const page = signInPage(registered, ["read", "write"], "h", { narrower: ["read"] });
    expect(page).toContain(
      '<p class="problem" role="alert" id="narrower">That key may do only <strong>read</strong>, less than this app asks for.',
    );
    expect(page).toContain('<input type="hidden" name="narrower" value="read">');
    expect(signInPage(registered, ["read", "write"], "h")).not.toContain("narrower");
  });

  it("names a metadata document's domain, the scopes asked, a loopback redirect's warning and the last try's problem", () => {
    const published = {
      ...registered,
      clientName: "Agent",
      clientDomain: "agent.example",
      redirectHost: "127.0.0.1",
      redirectIsLoopback: true,
    };
    const page = signInPage(published, ["read", "write"], "h", { problem: "That key <expired>." });
    expect(page).toContain(
      '<p>The app (published by <strong>agent.example</strong>) asks for <strong id="scopes">read, write</strong>. Its access will be sent to <strong id="redirect-host">127.0.0.1</strong>.</p>\n' +
        "<p><strong>Access goes to an app on this computer.</strong> Go on only if you just started signing in from it.</p>" +
        '<p class="problem" role="alert">That key &lt;expired&gt;.</p>\n<form method="post">',
    );
  });
});

describe("the page of a sign-in that cannot go on", () => {
  it("says why, escaped, and links back to the app only when there is one to go back to", () => {
    const head = `<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>Sign-in failed</title>${STYLE}\n<h1>Sign-in failed</h1>\n`;
    expect(problemPage("No <such> app.")).toBe(
      `${head}<p class="problem" role="alert">No &lt;such&gt; app.</p></html>`,
    );
    expect(problemPage("Unknown scope.", "https://app.example:8443/cb?error=invalid_scope&state=s")).toBe(
      `${head}<p class="problem" role="alert">Unknown scope.</p>\n` +
        '<p><a id="back" href="https://app.example:8443/cb?error=invalid_scope&amp;state=s">Back to the app at app.example:8443</a></p></html>',
    );
  });
});
