import { createApiKey } from "../../helpers/index";
import { fetchApi, formPost, REDIRECT_URI, registerClient, signInCode } from "../../helpers/sign-in";

// A confidential client that authenticates with HTTP Basic (client_secret_basic, as Python's
// `mcp` client registers), and a key to sign in with: what the token endpoint's tests start
// from (./token-request.test.ts, ./grant-revocations.test.ts).

/** A new such host: its registration, its Basic header, a code signed in with the key, and the code's exchange. */
export const confidentialHost = async () => {
  const key = await createApiKey("a confidential host's key");
  const client = (await registerClient("Python host", "client_secret_basic")) as {
    client_id: string;
    client_secret: string;
  };
  const basic = { Authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}` };
  /** A code for the client, signed in with `signingKey`, and its PKCE verifier. */
  const codeFor = (signingKey = key) => signInCode(client.client_id, signingKey);
  /** A code exchanged with Basic, and `extra` fields in the form. */
  const exchange = async (extra: Record<string, string>, signingKey = key) => {
    const { code, verifier } = await codeFor(signingKey);
    const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    return fetchApi("/oauth/token", formPost({ ...fields, ...extra }, basic));
  };
  return { key, client, basic, codeFor, exchange };
};

export type ConfidentialHost = Awaited<ReturnType<typeof confidentialHost>>;
