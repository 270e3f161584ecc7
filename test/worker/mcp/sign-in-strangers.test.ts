import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { AuthEnv } from "../../../src/auth-server/env";
import type AuthServer from "../../../src/auth-server/worker";
import { BASE_URL } from "../../helpers/index";
import { inOneLimiterWindow } from "../../helpers/limiter-window";
import { authorizeQuery, REDIRECT_URI } from "../../helpers/sign-in";

// What a caller that nobody admitted may make the sign-in Worker store (src/auth-server/
// strangers.ts): each registration and each page opened counts against its address on the
// unknown-key throttle, 60 a minute, and a registration's metadata is at most 5 KiB. A refused
// one stores nothing: the sign-in Worker runs here on the suite's stores, its KV's writes seen.

/** docs/mcp.md: the throttle's allowance a minute, per address. */
const THROTTLE_LIMIT = 60;
/** docs/mcp.md: the most bytes of client metadata a registration may send. */
const MAX_REGISTRATION_BYTES = 5120;

/** Every write the sign-in Worker made to OAUTH_KV, by key. */
const written: string[] = [];
const oauthKv = (env as Cloudflare.Env & { TEST_OAUTH_KV: KVNamespace }).TEST_OAUTH_KV;
const bindings: AuthEnv = {
  OAUTH_KV: new Proxy(oauthKv, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (property !== "put" || typeof value !== "function")
        return typeof value === "function" ? value.bind(target) : value;
      return (key: string, ...rest: unknown[]) => {
        written.push(key);
        return (value as (...args: unknown[]) => Promise<void>).apply(target, [key, ...rest]);
      };
    },
  }),
  API_KEYS: env.API_KEYS,
  AUTH_FAILURE_LIMITER: env.AUTH_FAILURE_LIMITER,
};

let SignInWorker: typeof AuthServer;
const signIn = (request: Request) => new SignInWorker(createExecutionContext(), bindings).fetch(request);

/** A fresh address of RFC 2544's benchmarking range: one client of the throttle. */
const freshAddress = () => {
  const [high = 0, low = 0] = crypto.getRandomValues(new Uint8Array(2));
  return `198.19.${high}.${low}`;
};

/** Client metadata of exactly `bytes` bytes, padded with a member the library ignores. */
const metadataOf = (bytes: number) => {
  const bare = JSON.stringify({
    client_name: "Stranger",
    redirect_uris: [REDIRECT_URI],
    token_endpoint_auth_method: "none",
  });
  return `${bare.slice(0, -1)},"padding":"${"x".repeat(bytes - bare.length - ',"padding":""'.length)}"}`;
};
const register = (address: string, body = metadataOf(200)) =>
  signIn(
    new Request(`${BASE_URL}/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
      body,
    }),
  );

let pageUrl: string;
beforeAll(async () => {
  // The library says, as it loads, that it fetches no metadata document here (the suite's
  // Worker lacks the flag that lets it): said once, and not the test's subject.
  const spy = vi.spyOn(console, "warn").mockImplementation(() => {});
  SignInWorker = (await import("../../../src/auth-server/worker")).default;
  spy.mockRestore();
  const { client_id: clientId } = (await (await register(freshAddress())).json()) as { client_id: string };
  pageUrl = `${BASE_URL}/authorize?${authorizeQuery(clientId, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")}`;
});

describe("a registration's metadata", () => {
  it("is taken at 5 KiB, and refused with 413 one byte over, storing nothing", async () => {
    expect(metadataOf(MAX_REGISTRATION_BYTES)).toHaveLength(MAX_REGISTRATION_BYTES);
    expect((await register(freshAddress(), metadataOf(MAX_REGISTRATION_BYTES))).status).toBe(201);
    written.length = 0;
    const refused = await register(freshAddress(), metadataOf(MAX_REGISTRATION_BYTES + 1));
    expect(refused.status).toBe(413);
    expect(refused.headers.get("Cache-Control")).toBe("no-store");
    expect(await refused.json()).toEqual({
      error: "invalid_client_metadata",
      error_description: "Client metadata may be at most 5120 bytes.",
    });
    expect(written).toEqual([]);
  });
});

describe("a registration's JSON", () => {
  const metadata = (members: string) =>
    `{"redirect_uris":["${REDIRECT_URI}"],"token_endpoint_auth_method":"none"${members ? `,${members}` : ""}}`;

  it("is refused with 400 when it repeats a member or nests past 32 levels, storing nothing", async () => {
    const nested = (levels: number) => `"x":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}`;
    expect((await register(freshAddress(), metadata(nested(32)))).status).toBe(201);
    written.length = 0;
    for (const body of [
      metadata(`"redirect_uris":["https://elsewhere.example/callback"]`),
      metadata(nested(33)),
      metadata('"client_name":"A","client_name":"B"'),
    ]) {
      const refused = await register(freshAddress(), body);
      expect(refused.status, body).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_client_metadata" });
    }
    expect(written).toEqual([]);
  });

  it("is refused a client_name with a control or bidirectional character, storing nothing; any script is taken", async () => {
    written.length = 0;
    for (const name of [
      "A\u0000B",
      "A\u001b[31mB",
      "A\nB",
      "A\u0085B",
      "abc\u202Egpj.exe",
      "A\u2066B",
      "A\u2028B",
      "A\ud800B",
    ]) {
      const refused = await register(freshAddress(), metadata(`"client_name":${JSON.stringify(name)}`));
      expect(refused.status, name).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_client_metadata" });
    }
    expect(written).toEqual([]);
    for (const name of ["Claude", "Агент", "エージェント 🐕", "وكيل"]) {
      expect((await register(freshAddress(), metadata(`"client_name":${JSON.stringify(name)}`))).status, name).toBe(
        201,
      );
    }
  });
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
