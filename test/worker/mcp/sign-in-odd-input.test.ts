import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL } from "../../helpers/index";
import { REDIRECT_URI } from "../../helpers/sign-in";
import { consoleOf, form, healthy, type LoadedSignInWorker, loadSignInWorker } from "../../helpers/sign-in-worker";

// The sign-in Worker (src/auth-server/) given what no app sends: every such request is a 4xx,
// never a 5xx. A name longer than KV allows is read as missing, without a fault
// (src/auth-server/stores.ts).

const OVERLONG = "x".repeat(600);

let worker: LoadedSignInWorker["worker"];
let clientId: string;
let pageQuery: string;
beforeAll(async () => {
  ({ worker, clientId, pageQuery } = await loadSignInWorker());
});

describe("the sign-in Worker, given odd input", () => {
  it.each([
    [
      "a JSON POST to /authorize",
      () =>
        new Request(`${BASE_URL}/authorize`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: "{}",
        }),
      415,
    ],
    [
      "a client id longer than KV's names",
      () => new Request(`${BASE_URL}/authorize?${pageQuery.replace(clientId, OVERLONG)}`),
      400,
    ],
    [
      "a code longer than KV's names",
      () =>
        form("/oauth/token", {
          grant_type: "authorization_code",
          code: `${OVERLONG}:${OVERLONG}:x`,
          redirect_uri: REDIRECT_URI,
          client_id: clientId,
          code_verifier: "v".repeat(43),
        }),
      400,
    ],
    [
      "a refresh token longer than KV's names",
      () =>
        form("/oauth/token", {
          grant_type: "refresh_token",
          refresh_token: `${OVERLONG}:${OVERLONG}:x`,
          client_id: clientId,
        }),
      400,
    ],
    [
      "a client id longer than KV's names at the token endpoint",
      () => form("/oauth/token", { grant_type: "refresh_token", refresh_token: "a:b:c", client_id: OVERLONG }),
      401,
    ],
  ])("answers %s with a 4xx, never a 5xx", async (_, request, status) => {
    let response = new Response();
    // The library says why it refused, on the console: not a fault of ours.
    await consoleOf(async () => {
      response = await worker(healthy).fetch(request());
    });
    expect(response.status).toBe(status);
  });

  it("knows no access token longer than KV's names, without a fault", async () => {
    await expect(worker(healthy).validateToken(`${BASE_URL}/mcp`, `${OVERLONG}:${OVERLONG}:x`)).resolves.toBeNull();
  });
});
