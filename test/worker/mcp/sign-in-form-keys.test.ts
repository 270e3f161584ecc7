import { describe, expect, it } from "vitest";
import { generateApiKey } from "../../../src/keys/api-key";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { authorizeQuery, fetchApi, formOn, formPost, pkcePair, problemOf, registerClient } from "../../helpers/sign-in";

// The key the sign-in form sends (src/auth-server/sign-in.ts): whatever the field holds, it
// goes to the one key check, each key of our shape tried counted against the address as an
// unknown key's.

/** docs/mcp.md: the keys an address may try a minute, as unknown keys. */
const THROTTLE_LIMIT = 60;

/** A sign-in page opened for a new app: the form it carries. */
const openedForm = async () => {
  const { client_id: clientId } = await registerClient("Key test host", "none");
  const { challenge } = await pkcePair();
  return formOn(await fetchApi(`/authorize?${authorizeQuery(clientId, challenge)}`));
};

describe("the sign-in form's key", () => {
  it("is no key when the field is missing or holds a file: the page again, 401", async () => {
    const missing = await openedForm();
    const withoutKey = await fetchApi(
      "/authorize",
      formPost({ handle: missing.handle, decision: "allow" }, { Cookie: missing.cookie }),
    );
    const asFile = await openedForm();
    const multipart = new FormData();
    multipart.set("handle", asFile.handle);
    multipart.set("decision", "allow");
    multipart.set("key", new File(["ps_test_not-a-key"], "key.txt"));
    const fileKey = await fetchApi("/authorize", {
      method: "POST",
      headers: { Cookie: asFile.cookie },
      body: multipart,
    });
    for (const answer of [withoutKey, fileKey]) {
      expect(answer.status).toBe(401);
      expect(problemOf(await answer.text())).toBe("That is not a valid API key.");
    }
  });

  it(`counts each key tried against the address: past ${THROTTLE_LIMIT} a minute, the page again with 429 and Retry-After`, async () => {
    const { statuses, throttled, html } = await inOneLimiterWindow(async (run) => {
      // An address of RFC 2544's benchmarking range that no other test counts from.
      const address = { "CF-Connecting-IP": `198.18.60.${run}` };
      let { handle, cookie } = await openedForm();
      const statuses: number[] = [];
      for (let tried = 0; tried < THROTTLE_LIMIT; tried++) {
        const again = await fetchApi(
          "/authorize",
          formPost({ handle, key: generateApiKey("development"), decision: "allow" }, { Cookie: cookie, ...address }),
        );
        statuses.push(again.status);
        ({ handle, cookie } = await formOn(again));
      }
      const throttled = await fetchApi(
        "/authorize",
        formPost({ handle, key: generateApiKey("development"), decision: "allow" }, { Cookie: cookie, ...address }),
      );
      return { statuses, throttled, html: await throttled.text() };
    });
    expect(statuses).toEqual(Array.from({ length: THROTTLE_LIMIT }, () => 401));
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("Retry-After")).toBe("60");
    expect(problemOf(html)).toBe("Too many sign-ins from this address; try again in a minute.");
    expect(html).toContain('name="handle"');
  });
});
