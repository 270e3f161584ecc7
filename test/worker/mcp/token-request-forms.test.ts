import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../helpers/index";
import { fetchApi, formPost, REDIRECT_URI, registerClient, signInCode } from "../../helpers/sign-in";

// The forms a token request may take, each read by the token endpoint's own rules
// (src/auth-server/token-request.ts) as the library reads it: Basic is Basic in whatever
// case and spacing the library accepts, and nothing else is; the client_id it drops is one
// copy of Basic's own id, decoded as a form decodes it; a refresh token is judged reused only
// when it is one; a request that is not a form goes to the library unread; and the endpoint's
// own refusals are never cached.

let client: { client_id: string; client_secret: string };
let key: string;
beforeAll(async () => {
  key = await createApiKey("the token request's forms");
  client = (await registerClient("Python host", "client_secret_basic")) as typeof client;
});

const basicOf = (credentials: string, scheme = "Basic ") => ({ Authorization: `${scheme}${btoa(credentials)}` });
/** A code exchange with `fields` beside the code's own, sent with `headers`. */
const exchange = async (fields: Record<string, string> | [string, string][], headers: Record<string, string>) => {
  const { code, verifier } = await signInCode(client.client_id, key);
  const body = new URLSearchParams(fields);
  for (const [name, value] of Object.entries({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  }))
    body.append(name, value);
  return fetchApi("/oauth/token", { ...formPost({}, headers), body });
};
const answerOf = async (response: Response) => ({ status: response.status, body: await response.json() });
const TWO_WAYS = {
  status: 400,
  body: { error: "invalid_request", error_description: "Client must not use multiple authentication methods" },
};

describe("HTTP Basic with the client_id repeated in the form", () => {
  it("is one way of authenticating in any case of its scheme, and after tabs or several spaces", async () => {
    const credentials = `${client.client_id}:${client.client_secret}`;
    for (const scheme of ["basic ", "BASIC ", "Basic\t", "Basic  \t "]) {
      const exchanged = await exchange({ client_id: client.client_id }, basicOf(credentials, scheme));
      expect(exchanged.status, JSON.stringify(scheme)).toBe(200);
      await exchanged.arrayBuffer();
    }
  });

  it("is two ways when the header is not Basic's own form; a client_id sent twice stays, for the library to refuse", async () => {
    const encoded = btoa(`${client.client_id}:${client.client_secret}`);
    const twoWays: [Record<string, string>, [string, string][]][] = [
      // Base64 followed by what Base64 does not hold.
      [{ Authorization: `Basic ${encoded}!` }, [["client_id", client.client_id]]],
      // Credentials without the colon that ends the id (all but their last character are the id).
      [basicOf(`${client.client_id}x`), [["client_id", client.client_id]]],
    ];
    for (const [headers, fields] of twoWays) {
      expect(await answerOf(await exchange(fields, headers)), JSON.stringify(headers)).toEqual(TWO_WAYS);
    }
    const twice = await exchange(
      [
        ["client_id", client.client_id],
        ["client_id", client.client_id],
      ],
      { Authorization: `Basic ${encoded}` },
    );
    expect(await answerOf(twice)).toEqual({
      status: 400,
      body: { error: "invalid_request", error_description: 'Request parameter "client_id" must not be repeated' },
    });
  });

  it("drops the client_id that Basic's id decodes to, a plus sign being a space in both", async () => {
    // The library decodes Basic's id as a form does: "a+b" is "a b", a client it does not know.
    const answer = await answerOf(await exchange({ client_id: "a b" }, basicOf("a+b:secret")));
    expect(answer).toMatchObject({
      status: 401,
      body: { error: "invalid_client", error_description: "Client not found" },
    });
  });

  it("keeps the client_id beside a scheme that only ends in basic, for the library to judge", async () => {
    const answer = await answerOf(
      await exchange(
        { client_id: client.client_id },
        basicOf(`${client.client_id}:${client.client_secret}`, "xbasic "),
      ),
    );
    expect(answer).toMatchObject({
      status: 401,
      body: { error: "invalid_client", error_description: "Client authentication failed" },
    });
  });
});

describe("a refresh token judged reused", () => {
  const basic = () => basicOf(`${client.client_id}:${client.client_secret}`);
  const refresh = (refreshToken: string, contentType?: string) =>
    fetchApi("/oauth/token", {
      ...formPost({ grant_type: "refresh_token", refresh_token: refreshToken }, basic()),
      ...(contentType ? { headers: { "Content-Type": contentType, ...basic() } } : {}),
    });
  /** A grant's first refresh token, used once already: the one whose second use revokes the grant. */
  const usedOnce = async () => {
    const first = (await (await exchange({}, basic())).json()) as { refresh_token: string };
    const successor = await refresh(first.refresh_token);
    expect(successor.status).toBe(200);
    return {
      used: first.refresh_token,
      successor: ((await successor.json()) as { refresh_token: string }).refresh_token,
    };
  };

  it("is one sent again in a form whose media type has parameters, and its refusal is not cached", async () => {
    const { used } = await usedOnce();
    const replayed = await refresh(used, "Application/X-WWW-Form-URLEncoded ; charset=UTF-8");
    expect(replayed.status).toBe(400);
    expect(replayed.headers.get("Cache-Control")).toBe("no-store");
    expect(await replayed.json()).toMatchObject({
      error_description: expect.stringMatching(/^This refresh token was used already/),
    });
  });

  it("is not a token of another shape, nor one beside a code, nor one in a body that is not a form", async () => {
    const malformed = await refresh("no-colons-here");
    expect(await answerOf(malformed)).toEqual({
      status: 400,
      body: { error: "invalid_grant", error_description: "Invalid token format" },
    });
    const { used, successor } = await usedOnce();
    const besideCode = await exchange({ refresh_token: used }, basic());
    expect(besideCode.status).toBe(200);
    await besideCode.arrayBuffer();
    const notForm = await refresh(used, "text/plain");
    expect(notForm.status).toBe(400);
    await notForm.arrayBuffer();
    // The grant lives on: its current token still refreshes.
    expect((await refresh(successor)).status).toBe(200);
  });
});

describe("the token endpoint's own refusals", () => {
  it("are not cached: a request over its size", async () => {
    const oversize = await fetchApi("/oauth/token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded;charset=utf-8" },
      body: `grant_type=refresh_token&padding=${"x".repeat(16_384)}`,
    });
    expect(oversize.status).toBe(413);
    expect(oversize.headers.get("Cache-Control")).toBe("no-store");
    await oversize.arrayBuffer();
  });

  it("leave to the library a request with no media type, and one that is not a POST", async () => {
    // Bytes, which fetch sends with no Content-Type (a string would be text/plain).
    const untyped = await fetchApi("/oauth/token", {
      method: "POST",
      body: new TextEncoder().encode("grant_type=refresh_token"),
    });
    const got = await fetchApi("/oauth/token", { headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(await answerOf(untyped)).toEqual({
      status: 400,
      body: { error: "invalid_request", error_description: "Content-Type must be application/x-www-form-urlencoded" },
    });
    expect(await answerOf(got)).toEqual({
      status: 405,
      body: { error: "invalid_request", error_description: "Method not allowed" },
    });
  });
});
