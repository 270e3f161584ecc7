import { describe, expect, it } from "vitest";
import { generateApiKey } from "../../../src/keys/api-key";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { api, apiKey, expectError, httpRequest, rawHttp } from "../helpers/client";

// What only a local server (the Worker in wrangler's test harness) may be put through: a
// flood of guessed keys, and requests that the runtime in front of the Worker answers itself.

/** A well-formed key that no record knows: what a client guessing keys sends. */
const randomKey = () => generateApiKey("development");

describe("a client guessing keys", () => {
  // AUTH_FAILURE_LIMITER in wrangler.toml: 60 attempts per address and minute. Locally the
  // client's address is the CF-Connecting-IP it sends, so each run uses addresses of its own.
  const address = () =>
    `198.18.${crypto.getRandomValues(new Uint8Array(1))[0]}.${crypto.getRandomValues(new Uint8Array(1))[0]}`;

  it("gets 429 with Retry-After past 60 unknown keys a minute, while a valid key from the same address works", async () => {
    // The valid key in use: its first use in an isolate counts once, from an address of its own here.
    expect((await api("/v1/pets?limit=1", { key: apiKey, headers: { "CF-Connecting-IP": address() } })).status).toBe(
      200,
    );
    const { attacker, statuses, refused } = await inOneLimiterWindow(async () => {
      const attacker = address();
      const statuses: number[] = [];
      for (let guess = 0; guess < 61; guess++) {
        const response = await api("/v1/pets", { key: randomKey(), headers: { "CF-Connecting-IP": attacker } });
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      const refused = await api("/v1/pets", { key: randomKey(), headers: { "CF-Connecting-IP": attacker } });
      return { attacker, statuses, refused };
    });
    expect(statuses.slice(0, 60).every((status) => status === 401)).toBe(true);
    await expectError(refused, 429, "rate_limited");
    expect(refused.headers.get("Retry-After")).toBe("60");
    expect(refused.headers.get("Cache-Control")).toBe("no-store");
    const valid = await api("/v1/pets?limit=1", { key: apiKey, headers: { "CF-Connecting-IP": attacker } });
    expect(valid.status).toBe(200);
    await expectError(
      await api("/v1/pets", { key: randomKey(), headers: { "CF-Connecting-IP": address() } }),
      401,
      "unauthorized",
    );
  });
});

describe("requests the runtime answers before the Worker", () => {
  it("answers an unknown method with 501 in plain text", async () => {
    const [answer] = await rawHttp([httpRequest("FOO", "/v1/pets", { Connection: "close" })], {
      outsideContract: "workerd answers a method it does not know before the Worker runs",
    });
    expect(answer?.status).toBe(501);
    expect(answer?.headers.get("Content-Type")).toMatch(/^text\/plain/);
    // docs/api.md quotes the body.
    expect(await answer?.text()).toBe("ERROR: Unrecognized request method.");
  });

  it("answers CONNECT with 500 in plain text", async () => {
    const [answer] = await rawHttp([httpRequest("CONNECT", "/v1/pets", { Connection: "close" })], {
      outsideContract: "workerd answers CONNECT itself, looking for a socket handler the Worker does not have",
    });
    expect(answer?.status).toBe(500);
    expect(await answer?.text()).toBe("Internal Server Error");
  });

  it("lets a method it knows through to the Worker, which answers 405 with Allow", async () => {
    const [answer] = await rawHttp([httpRequest("PROPFIND", "/v1/pets", { Connection: "close" })]);
    await expectError(answer as Response, 405, "method_not_allowed");
    expect(answer?.headers.get("Allow")).toBe("GET, HEAD, POST");
  });
});
