import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { answerAtDeadline } from "../../helpers/deadline";
import { BASE_URL, createApiKey, faultLogLines } from "../../helpers/index";
import { expectUnavailable, formOn, REDIRECT_URI } from "../../helpers/sign-in";
import { consoleOf, form, healthy, type LoadedSignInWorker, loadSignInWorker } from "../../helpers/sign-in-worker";

// The sign-in Worker (src/auth-server/) run here on the suite's stores, each of which can be
// made to throw or hang: every fault of a store it depends on is 503 with Retry-After, within
// the 3 s deadline, never a 500 (odd input: ./sign-in-odd-input.test.ts).

/** docs/architecture.md: a store that has not answered within 3 s is failing. */
const DEADLINE_MS = 3000;
/** docs/architecture.md: a limiter that takes over 1 s fails open. */
const LIMITER_DEADLINE_MS = 1000;

type Breakage = "throws" | "hangs";
/** `kv`, whose every call throws or hangs; `called` says when one was made. */
const broken = (kv: KVNamespace, how: Breakage, called: () => void): KVNamespace =>
  new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== "function") return value;
      return () => {
        called();
        return how === "throws" ? Promise.reject(new Error("KV is down")) : new Promise(() => {});
      };
    },
  });

/** The one line a store's fault writes: the store, what it said, and the 503 the client got. */
const faultLine = (store: "OAUTH_KV" | "API_KEYS", how: Breakage) => {
  const dependency = store === "API_KEYS" ? "KV" : store;
  return {
    level: "warn",
    message: "dependency fault",
    dependency,
    cause: how === "throws" ? "KV is down" : `${dependency} did not answer within ${DEADLINE_MS} ms`,
    outcome: "503",
  };
};
const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as unknown);

let worker: LoadedSignInWorker["worker"];
let clientId: string;
let pageQuery: string;
let key: string;
beforeAll(async () => {
  key = await createApiKey("signs in while stores fail");
  ({ worker, clientId, pageQuery } = await loadSignInWorker());
});
afterEach(() => vi.useRealTimers());

/** The sign-in page's form, opened on healthy stores: its handle and cookie, for a POST. */
const openedForm = async () => formOn(await worker(healthy).fetch(new Request(`${BASE_URL}/authorize?${pageQuery}`)));

/** RFC 7636's example verifier, whose S256 challenge the page's query sends. */
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

/** A refresh token, signed in for and exchanged on healthy stores. */
const refreshToken = async () => {
  const { handle, cookie } = await openedForm();
  const signedIn = await worker(healthy).fetch(
    form("/authorize", { handle, key, decision: "allow" }, { Cookie: cookie }),
  );
  const code = new URL(signedIn.headers.get("Location") ?? "").searchParams.get("code") ?? "";
  const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: clientId };
  const exchanged = await worker(healthy).fetch(form("/oauth/token", { ...fields, code_verifier: VERIFIER }));
  return ((await exchanged.json()) as { refresh_token: string }).refresh_token;
};

/** Each request of the sign-in that reads a store, and the stores it reads. */
const REQUESTS: [string, ("OAUTH_KV" | "API_KEYS")[], () => Promise<Request>][] = [
  ["the page (GET /authorize)", ["OAUTH_KV"], async () => new Request(`${BASE_URL}/authorize?${pageQuery}`)],
  [
    "the form (POST /authorize)",
    ["OAUTH_KV", "API_KEYS"],
    async () => {
      const { handle, cookie } = await openedForm();
      return form("/authorize", { handle, key, decision: "allow" }, { Cookie: cookie });
    },
  ],
  [
    "a registration (POST /oauth/register)",
    ["OAUTH_KV"],
    async () =>
      new Request(`${BASE_URL}/oauth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_name: "Another",
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: "none",
        }),
      }),
  ],
  [
    "a code exchange (POST /oauth/token)",
    ["OAUTH_KV"],
    async () =>
      form("/oauth/token", {
        grant_type: "authorization_code",
        code: "a:b:c",
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: VERIFIER,
      }),
  ],
  [
    "a refresh (POST /oauth/token)",
    ["OAUTH_KV", "API_KEYS"],
    async () =>
      form("/oauth/token", { grant_type: "refresh_token", refresh_token: await refreshToken(), client_id: clientId }),
  ],
];

describe("the sign-in Worker, while a store it depends on fails", () => {
  for (const [what, stores, request] of REQUESTS) {
    for (const store of stores) {
      it(`answers ${what} 503 with Retry-After when ${store} throws`, async () => {
        const faulty = { ...healthy, [store]: broken(healthy[store], "throws", () => {}) };
        const sent = await request();
        let answer = new Response();
        const lines = await consoleOf(async () => {
          answer = await worker(faulty).fetch(sent);
        });
        await expectUnavailable(answer, sent);
        expect(parsed(lines)).toEqual([faultLine(store, "throws")]);
      });

      it(`answers ${what} 503 with Retry-After when ${store} hangs, at the ${DEADLINE_MS} ms deadline and not before`, async () => {
        const sent = await request();
        let calls = 0;
        const faulty = { ...healthy, [store]: broken(healthy[store], "hangs", () => calls++) };
        let answer: Response | undefined;
        const lines = await consoleOf(async () => {
          answer = await answerAtDeadline(
            () => worker(faulty).fetch(sent),
            () => calls,
            DEADLINE_MS,
          );
        });
        await expectUnavailable(answer ?? expect.unreachable(), sent);
        expect(parsed(lines)).toEqual([faultLine(store, "hangs")]);
      });
    }
  }

  it.each(["throws", "hangs"] as const)(
    `signs in all the same when AUTH_FAILURE_LIMITER %s: it fails open, after ${LIMITER_DEADLINE_MS} ms at most`,
    async (how) => {
      const { handle, cookie } = await openedForm();
      let calls = 0;
      const limiter: RateLimit = {
        limit: () => {
          calls++;
          return how === "throws" ? Promise.reject(new Error("limiter is down")) : new Promise(() => {});
        },
      };
      let answer: Response | undefined;
      const lines = await faultLogLines(async () => {
        const send = () =>
          worker({ ...healthy, AUTH_FAILURE_LIMITER: limiter }).fetch(
            form("/authorize", { handle, key, decision: "allow" }, { Cookie: cookie }),
          );
        answer = await (how === "hangs" ? answerAtDeadline(send, () => calls, LIMITER_DEADLINE_MS) : send());
      });
      expect(lines).toMatchObject([{ dependency: "AUTH_FAILURE_LIMITER", outcome: "failed open: not counted" }]);
      expect(answer?.status).toBe(302);
      expect(new URL(answer?.headers.get("Location") ?? "").searchParams.get("code")).toBeTruthy();
    },
  );

  it("rejects validateToken when OAUTH_KV throws, for the API to answer 503", async () => {
    const faulty = { ...healthy, OAUTH_KV: broken(healthy.OAUTH_KV, "throws", () => {}) };
    const token = `${"a".repeat(64)}:${"b".repeat(16)}:${"c".repeat(32)}`;
    await expect(worker(faulty).validateToken(`${BASE_URL}/mcp`, token)).rejects.toThrow();
  });

  it("lets an error that is no store's fault through as itself, for the runtime's 500, and not as a 503", async () => {
    // A call that throws as it is made, before any answer of KV: a mistake in the code, not a store that failed.
    const mistaken = new Proxy(healthy.OAUTH_KV, {
      get: () => () => {
        throw new TypeError("a mistaken call");
      },
    });
    const lines = await consoleOf(async () => {
      await expect(
        worker({ ...healthy, OAUTH_KV: mistaken }).fetch(new Request(`${BASE_URL}/authorize?${pageQuery}`)),
      ).rejects.toThrow(new TypeError("a mistaken call"));
    });
    expect(lines).toEqual([]);
  });
});
