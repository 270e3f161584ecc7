import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL } from "../../helpers/index";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { authorizeQuery } from "../../helpers/sign-in";
import { freshAddress, register, signIn, written } from "./stranger-sign-in";

// What a caller that nobody admitted may make the sign-in Worker store (src/auth-server/
// strangers.ts): each registration and each page opened (a HEAD of it too) counts against its
// address on the unknown-key throttle, 60 a minute; a refused one stores nothing. What a
// registration may hold: ./sign-in-registrations.test.ts.

/** docs/mcp.md: the throttle's allowance a minute, per address. */
const THROTTLE_LIMIT = 60;

let pageUrl: string;
beforeAll(async () => {
  const { client_id: clientId } = (await (await register(freshAddress())).json()) as { client_id: string };
  pageUrl = `${BASE_URL}/authorize?${authorizeQuery(clientId, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")}`;
});

describe("an address's registrations and pages", () => {
  it("count on the unknown-key throttle: 60 a minute, then 429 with Retry-After, storing nothing", async () => {
    const { allowed, registration, page, head, writes, otherStatuses } = await inOneLimiterWindow(async () => {
      const address = freshAddress();
      const allowed: number[] = [];
      for (let sent = 0; sent < THROTTLE_LIMIT; sent++) {
        // Registrations, pages, and HEADs of the page, which count alike.
        const method = sent % 4 === 3 ? "HEAD" : "GET";
        const answer =
          sent % 2 === 0
            ? await register(address)
            : await signIn(new Request(pageUrl, { method, headers: { "CF-Connecting-IP": address } }));
        allowed.push(answer.status);
      }
      written.length = 0;
      const registration = await register(address);
      const page = await signIn(new Request(pageUrl, { headers: { "CF-Connecting-IP": address } }));
      const head = await signIn(new Request(pageUrl, { method: "HEAD", headers: { "CF-Connecting-IP": address } }));
      const writes = [...written];
      // What stores nothing for a stranger is not throttled here: the metadata, the form, the token endpoint.
      const others = [
        new Request(`${BASE_URL}/.well-known/oauth-authorization-server`),
        new Request(`${BASE_URL}/authorize`, { method: "POST" }),
        new Request(`${BASE_URL}/oauth/token`, { method: "POST" }),
        new Request(`${BASE_URL}/oauth/register`),
      ].map((request) => new Request(request, { headers: { "CF-Connecting-IP": address } }));
      const otherStatuses = [];
      for (const request of others) otherStatuses.push((await signIn(request)).status);
      return { allowed, registration, page, head: head.status, writes, otherStatuses };
    });
    expect(head).toBe(429);
    expect(otherStatuses).toEqual([200, 415, 400, 405]);
    expect(allowed).toEqual(Array.from({ length: THROTTLE_LIMIT }, (_, sent) => (sent % 2 === 0 ? 201 : 200)));
    expect(registration.status).toBe(429);
    expect(registration.headers.get("Retry-After")).toBe("60");
    expect(registration.headers.get("Cache-Control")).toBe("no-store");
    expect(await registration.json()).toEqual({
      error: "temporarily_unavailable",
      error_description: "Too many sign-ins from this address; try again in a minute.",
    });
    expect(page.status).toBe(429);
    expect(page.headers.get("Retry-After")).toBe("60");
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("Too many sign-ins from this address; try again in a minute.");
    expect(writes).toEqual([]);
  });
});

describe("a HEAD of the page", () => {
  it("answers the page's status and headers and stores nothing, where its GET stores the form's record", async () => {
    const request = (method: string) =>
      new Request(pageUrl, { method, headers: { "CF-Connecting-IP": freshAddress() } });
    written.length = 0;
    const head = await signIn(request("HEAD"));
    expect([head.status, head.headers.get("Content-Type"), await head.text()]).toEqual([
      200,
      "text/html; charset=utf-8",
      "",
    ]);
    expect(written).toEqual([]);
    expect((await signIn(request("GET"))).status).toBe(200);
    expect(written).not.toEqual([]);
  });

  it("of a request the page refuses is refused as its GET is, storing nothing", async () => {
    written.length = 0;
    const noPkce = pageUrl.replace(/&code_challenge=[^&]*/, "");
    const head = await signIn(new Request(noPkce, { method: "HEAD", headers: { "CF-Connecting-IP": freshAddress() } }));
    const get = await signIn(new Request(noPkce, { headers: { "CF-Connecting-IP": freshAddress() } }));
    expect([head.status, get.status]).toEqual([400, 400]);
    expect(written).toEqual([]);
  });
});
