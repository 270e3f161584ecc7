import { AuthorizationError, CimdFetchError } from "@cloudflare/workers-oauth-provider";
import { describe, expect, it } from "vitest";
import { signIn } from "../../../src/auth-server/sign-in";
import { BASE_URL } from "../../helpers/index";
import { problemOf, REDIRECT_URI } from "../../helpers/sign-in";
import { healthy } from "../../helpers/sign-in-worker";

// A request the library refuses as it reads it (src/auth-server/sign-in.ts): a page that says
// why, never a redirect before the person has acted, linking back only where the library
// made that safe; an app's metadata document that could not be read, said so; any other
// error is no refusal, and goes on as itself. The library is handed the error to throw: it
// fetches a metadata document only in the sign-in Worker's own isolate, whose console would
// write its line into the suite's output (fetched for real over HTTPS:
// test/e2e/local/oauth-metadata-documents.test.ts).

type OAuthApi = Parameters<typeof signIn>[0];
const refusing = (error: unknown) => ({ parseAuthRequest: () => Promise.reject(error) }) as unknown as OAuthApi;
const pageFor = (error: unknown) => signIn(refusing(error), healthy, new Request(`${BASE_URL}/authorize?client_id=x`));
describe("a request the library refuses as it reads it", () => {
  it("gets the page that says why, 400, linking back to the app only where its redirect URI was verified", async () => {
    const verified = new AuthorizationError("invalid_request", {
      description: "The request lacks a state.",
      redirectUri: REDIRECT_URI,
      state: "s",
    });
    const unverified = new AuthorizationError("invalid_request", { description: "No such app." });
    const back = await pageFor(verified);
    expect(back.status).toBe(400);
    const backHtml = await back.text();
    expect(problemOf(backHtml)).toBe("The request lacks a state.");
    expect(backHtml).toContain(`id="back" href="${REDIRECT_URI}?`);
    const nowhere = await pageFor(unverified);
    expect(nowhere.status).toBe(400);
    const nowhereHtml = await nowhere.text();
    expect(problemOf(nowhereHtml)).toBe("No such app.");
    expect(nowhereHtml).not.toContain('id="back"');
  });

  it("gets the page that says the app's metadata document could not be read, 400, with no link", async () => {
    const page = await pageFor(new CimdFetchError("https://app.example/client.json", new Error("HTTP 404")));
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(problemOf(html)).toBe("The app&#39;s metadata document could not be read.");
    expect(html).not.toContain('id="back"');
  });

  it("lets any other error go on as itself", async () => {
    await expect(pageFor(new TypeError("not a refusal"))).rejects.toThrow(new TypeError("not a refusal"));
  });
});
