import { describe, expect, it } from "vitest";
import { createApiKey } from "../../helpers/index";
import {
  authorizeQuery,
  fetchApi,
  formPost,
  pkcePair,
  problemOf,
  REDIRECT_URI,
  registerClient,
} from "../../helpers/sign-in";

// The sign-in page at /authorize and its form (docs/mcp.md, "The page", "What is granted"), in
// workerd: what each answer a person can get says, with which status. The same over HTTP and
// in Chromium: test/e2e/local/oauth.test.ts and oauth-refusals.test.ts.

/** docs/mcp.md: the sign-in form may be at most 16 KiB. */
const MAX_FORM_BYTES = 16_384;

/** The page opened for a new app: its answer, the handle its form posts and the cookie that binds it. */
const openPage = async (
  scope = "read",
  query?: (query: URLSearchParams) => void,
  authMethod: "none" | "client_secret_basic" = "none",
) => {
  const { client_id: clientId } = await registerClient("Form test host", authMethod);
  const { challenge } = await pkcePair();
  const params = authorizeQuery(clientId, challenge, scope);
  params.set("state", "form-state");
  query?.(params);
  const page = await fetchApi(`/authorize?${params}`);
  const html = await page.text();
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return { page, html, handle: /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "", cookie };
};

const post = (fields: Record<string, string>, cookie: string, headers: Record<string, string> = {}) =>
  fetchApi("/authorize", formPost(fields, { Cookie: cookie, ...headers }));

describe("the sign-in page", () => {
  it("is shown with its own headers and the library's cookie, naming the app and the scopes", async () => {
    const { page, html, handle, cookie } = await openPage("read write");
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(page.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(page.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    expect(cookie).not.toBe("");
    expect(handle).not.toBe("");
    expect(html).toContain('<span id="client">Form test host</span>');
    expect(html).toContain('<strong id="scopes">read, write</strong>');
    expect(problemOf(html)).toBeUndefined();
  });

  it("is refused without a form, linking back with the error, for a request without PKCE or with a scope this API lacks", async () => {
    for (const [change, error, problem] of [
      [
        (query: URLSearchParams) => {
          query.delete("code_challenge");
          query.delete("code_challenge_method");
        },
        "invalid_request",
        "PKCE is required: send a code_challenge (S256).",
      ],
      [
        (query: URLSearchParams) => query.set("scope", "admin"),
        "invalid_scope",
        "Unknown scope &#39;admin&#39;: this server grants read and write.",
      ],
    ] as const) {
      // A confidential app: the library itself asks PKCE of public ones.
      const { page, html } = await openPage("read", change, "client_secret_basic");
      expect(page.status, error).toBe(400);
      expect(html).not.toContain("<form");
      expect(problemOf(html)).toBe(problem);
      const back = new URL(/<a id="back" href="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? "");
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
      expect(back.searchParams.get("error")).toBe(error);
      expect(back.searchParams.get("state")).toBe("form-state");
    }
  });

  it("says why, with no link to follow, when the library refuses the request (an unknown app)", async () => {
    const { page, html } = await openPage("read", (query) => query.set("client_id", "no-such-client"));
    expect(page.status).toBe(400);
    expect(html).not.toContain('id="back"');
    expect(problemOf(html)).not.toBeUndefined();
  });
});

describe("the sign-in form", () => {
  it("shows the page again, with a fresh form, for a key that is not valid or has expired; a good key then signs in", async () => {
    const expired = await createApiKey("expired", { expiresAt: "2020-01-01T00:00:00.000Z" });
    let { handle, cookie } = await openPage();
    for (const [key, status, problem] of [
      ["ps_test_not-a-key", 401, "That is not a valid API key."],
      [expired, 401, "That API key has expired."],
    ] as const) {
      const again = await post({ handle, key, decision: "allow" }, cookie);
      expect(again.status, problem).toBe(status);
      const html = await again.text();
      expect(problemOf(html)).toBe(problem);
      const fresh = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "";
      expect(fresh).not.toBe(handle);
      handle = fresh;
      cookie =
        again.headers
          .getSetCookie()
          .map((line) => line.split(";")[0])
          .join("; ") || cookie;
    }
    const signedIn = await post({ handle, key: await createApiKey("good"), decision: "allow" }, cookie);
    expect(signedIn.status).toBe(302);
    expect(new URL(signedIn.headers.get("Location") ?? "").searchParams.get("code")).toBeTruthy();
  });

  it("gives a key that may do none of what is asked the page again, 403, granting nothing", async () => {
    const { handle, cookie } = await openPage("read");
    const writer = await createApiKey("write only", { scopes: ["write"] });
    const refused = await post({ handle, key: writer, decision: "allow" }, cookie);
    expect(refused.status).toBe(403);
    expect(problemOf(await refused.text())).toBe(
      "That API key does not have the &#39;read&#39; scope this app asks for; sign in with a key that has it.",
    );
    expect(refused.headers.get("Location")).toBeNull();
  });

  it("sends the person back to the app with access_denied when they deny", async () => {
    const { handle, cookie } = await openPage();
    const denied = await post({ handle, decision: "deny" }, cookie);
    expect(denied.status).toBe(302);
    const back = new URL(denied.headers.get("Location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("access_denied");
  });

  it("is read from a form, url-encoded or multipart; anything else is 415", async () => {
    const { handle, cookie } = await openPage();
    const json = await fetchApi("/authorize", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({ handle, key: "x", decision: "allow" }),
    });
    expect(json.status).toBe(415);
    expect(problemOf(await json.text())).toBe("The sign-in form is sent as a form, from the sign-in page.");
    const multipart = new FormData();
    for (const [name, value] of Object.entries({ handle, key: await createApiKey("multipart"), decision: "allow" }))
      multipart.set(name, value);
    const signedIn = await fetchApi("/authorize", {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie },
      body: multipart,
    });
    expect(signedIn.status).toBe(302);
    // A media type's name is the same in any case, and space may stand before its parameters (RFC 9110).
    const { handle: next, cookie: nextCookie } = await openPage();
    const spelled = await post({ handle: next, key: await createApiKey("spelled"), decision: "allow" }, nextCookie, {
      "Content-Type": "Application/X-WWW-Form-URLEncoded ; charset=UTF-8",
    });
    expect(spelled.status).toBe(302);
  });

  it("may be at most 16 KiB: one byte more is 413, read to its end", async () => {
    const { cookie } = await openPage();
    const sized = (bytes: number) => {
      const fields = "decision=deny&handle=";
      return `${fields}${"x".repeat(bytes - fields.length)}`;
    };
    // Within the bound, the form is read: its handle is unknown (400), never 413.
    const within = await fetchApi("/authorize", {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: sized(MAX_FORM_BYTES),
    });
    expect(within.status).toBe(400);
    const over = await fetchApi("/authorize", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: sized(MAX_FORM_BYTES + 1),
    });
    expect(over.status).toBe(413);
    expect(problemOf(await over.text())).toBe(`The sign-in form may be at most ${MAX_FORM_BYTES} bytes.`);
  });
});
