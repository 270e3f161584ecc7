import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { hashApiKey } from "../../../src/keys/api-key";
import { createApiKey } from "../../helpers/index";
import { fetchApi, formPost, REDIRECT_URI, registerClient, signInCode } from "../../helpers/sign-in";

// The index of a key's grants (src/auth-server/grant-index.ts), which `npm run key:grants`
// reads: each sign-in gets a user id of its own, random, and an entry under the key's hash
// that lives as long as its grant may, a refresh token's 30 days and an hour over a code's
// ten minutes (over real HTTP, with the script: test/e2e/local/operator-scripts.test.ts).

const GRANT_INDEX_LIFETIME_S = 30 * 24 * 3600 + 3600;
const oauthKv = (env as Cloudflare.Env & { TEST_OAUTH_KV: KVNamespace }).TEST_OAUTH_KV;

it("gives each sign-in a random user id, and indexes it under the key's hash for the grant's lifetime", async () => {
  const key = await createApiKey("indexed sign-ins");
  const client = await registerClient("indexed host", "none");
  const userIds: string[] = [];
  // KV sets an entry's expiration from its own clock: the time of the write lies between these.
  const writtenAfterS = Math.floor(Date.now() / 1000);
  for (const _ of [1, 2]) {
    const { code, verifier } = await signInCode(client.client_id, key);
    const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    const exchanged = await fetchApi("/oauth/token", formPost({ ...fields, client_id: client.client_id }));
    const { access_token: accessToken } = (await exchanged.json()) as { access_token: string };
    userIds.push(accessToken.split(":")[0] ?? "");
  }
  const writtenBeforeS = Math.ceil(Date.now() / 1000);
  for (const userId of userIds) expect(userId).toMatch(/^[0-9a-f]{32}$/);
  expect(new Set(userIds).size).toBe(2);

  const prefix = `key-grants:${await hashApiKey(key)}:`;
  const { keys } = await oauthKv.list({ prefix });
  expect(keys.map(({ name }) => name).toSorted()).toEqual(userIds.map((userId) => `${prefix}${userId}`).toSorted());
  for (const { expiration } of keys) {
    expect(expiration).toBeGreaterThanOrEqual(writtenAfterS + GRANT_INDEX_LIFETIME_S);
    expect(expiration).toBeLessThanOrEqual(writtenBeforeS + GRANT_INDEX_LIFETIME_S);
  }
});
