import { expect } from "vitest";
import { freshAddress } from "./oauth-host";
import { postSignInForm } from "./sign-in-over-http";

// A person at the sign-in page that a host printed for them, driven over HTTP as a browser
// without script would: the key entered and Allow, and the redirect followed to the host.

/**
 * The page at `address` allowed with `key` (entered again where the page says the key may do
 * less than asked), and its redirect followed to the host's callback.
 */
export const allowSignIn = async (origin: string, address: string, key: string) =>
  followToCallback(await allowedRedirect(origin, address, key));

/** The code that the page at `address`, allowed with `key`, sends back to the host. */
export const allowedCode = async (origin: string, address: string, key: string) =>
  new URL(await allowedRedirect(origin, address, key)).searchParams.get("code") ?? "";

/** The page at `address` allowed with `key`, entered again where the page says the key may do less than asked: where it redirects. */
const allowedRedirect = async (origin: string, address: string, key: string) => {
  let page = await fetch(address, { redirect: "manual", headers: freshAddress() });
  for (let tries = 0; tries < 2; tries++) {
    const html = await page.text();
    const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const narrower = /name="narrower" value="([^"]+)"/.exec(html)?.[1];
    const cookie = page.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const fields = { handle, key, decision: "allow", ...(narrower ? { narrower } : {}) };
    const answer = await postSignInForm(origin, fields, { Cookie: cookie, Origin: origin });
    if (answer.status === 302) return answer.headers.get("Location") ?? "";
    // The page again, saying the key may do less than asked: the form it gives, with the key again.
    expect(answer.status, html).toBe(200);
    page = answer;
  }
  throw new Error("the page never let the key allow");
};

/**
 * The redirect to the host's callback, sent again while nothing listens there yet: some hosts
 * begin listening only after they printed the address, and however long that takes here.
 */
const followToCallback = async (location: string) => {
  for (;;) {
    try {
      await fetch(location);
      return;
    } catch (error) {
      if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNREFUSED") throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
};
