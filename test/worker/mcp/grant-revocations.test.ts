import { beforeAll, describe, expect, it } from "vitest";
import { postMcp, toolCall } from "../../helpers/mcp-calls";
import { fetchApi, formPost, REDIRECT_URI } from "../../helpers/sign-in";
import { type ConfidentialHost, confidentialHost } from "./confidential-host";

// What ends a grant at the token endpoint (src/auth-server/grant-revocations.ts): any refresh
// token a grant had, used a second time (RFC 9700 section 4.14.2), and a code whose PKCE check
// fails (RFC 9700 section 2.1.1).

let basic: ConfidentialHost["basic"];
let codeFor: ConfidentialHost["codeFor"];
let exchange: ConfidentialHost["exchange"];
beforeAll(async () => {
  ({ basic, codeFor, exchange } = await confidentialHost());
});

describe("a refresh token", () => {
  const refresh = (refreshToken: string) =>
    fetchApi("/oauth/token", formPost({ grant_type: "refresh_token", refresh_token: refreshToken }, basic));
  const tokensOf = async (answer: Response) => {
    expect(answer.status).toBe(200);
    return (await answer.json()) as { access_token: string; refresh_token: string };
  };
  const listPets = (accessToken: string) => postMcp(accessToken, toolCall("list_pets", {}));

  it("is replaced at each refresh, each successor working in turn", async () => {
    const first = await tokensOf(await exchange({}));
    const second = await tokensOf(await refresh(first.refresh_token));
    const third = await tokensOf(await refresh(second.refresh_token));
    expect((await listPets(third.access_token)).status).toBe(200);
  });

  it("used a second time revokes its grant: the copy, its successor and their access tokens all end", async () => {
    const first = await tokensOf(await exchange({}));
    const successor = await tokensOf(await refresh(first.refresh_token));
    const replayed = await refresh(first.refresh_token);
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toEqual({
      error: "invalid_grant",
      error_description: "This refresh token was used already: its access is revoked; sign in again.",
    });
    const afterwards = await refresh(successor.refresh_token);
    expect(afterwards.status).toBe(400);
    expect(await afterwards.json()).toMatchObject({ error: "invalid_grant" });
    expect((await listPets(successor.access_token)).status).toBe(401);
  });

  it("of any rotation back, used again, revokes its grant: after three rotations, the first ends the newest", async () => {
    const first = await tokensOf(await exchange({}));
    let newest = first;
    for (let rotation = 0; rotation < 3; rotation++) newest = await tokensOf(await refresh(newest.refresh_token));
    expect((await listPets(newest.access_token)).status).toBe(200);
    const replayed = await refresh(first.refresh_token);
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toMatchObject({ error: "invalid_grant" });
    expect((await refresh(newest.refresh_token)).status).toBe(400);
    expect((await listPets(newest.access_token)).status).toBe(401);
  });

  it("that its grant never issued is refused, and revokes nothing", async () => {
    const first = await tokensOf(await exchange({}));
    const [userId, grantId] = first.refresh_token.split(":");
    const forged = await refresh(`${userId}:${grantId}:not-the-secret`);
    expect(forged.status).toBe(400);
    expect((await refresh(first.refresh_token)).status).toBe(200);
  });
});

describe("a code whose PKCE check fails", () => {
  const exchangeWith = (code: string, verifier: string) =>
    fetchApi(
      "/oauth/token",
      formPost({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier }, basic),
    );

  it("is used up: the right code_verifier after a wrong one gets no token (RFC 9700)", async () => {
    const { code, verifier } = await codeFor();
    const wrong = await exchangeWith(code, `${verifier.slice(0, -1)}${verifier.endsWith("A") ? "B" : "A"}`);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    const right = await exchangeWith(code, verifier);
    expect(right.status).toBe(400);
    expect(await right.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("of a code its grant never issued uses up nothing: the real code still works", async () => {
    const { code, verifier } = await codeFor();
    const [userId, grantId] = code.split(":");
    expect((await exchangeWith(`${userId}:${grantId}:not-the-secret`, "x".repeat(43))).status).toBe(400);
    expect((await exchangeWith(code, verifier)).status).toBe(200);
  });
});
