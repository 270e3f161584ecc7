import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";

// An agent's host as the OAuth tests stand it in: what the official v2 client asks of a host
// (OAuthClientProvider), kept in memory, and its loopback callback, where the browser lands
// after the sign-in page (RFC 8252), which records what it was sent.

export const HOST_NAME = "E2E Agent Host";

/**
 * A client address of its own (RFC 2544's benchmarking range) for each registration and page
 * a test opens: each counts against its address on the throttle of strangers (src/auth-server/
 * strangers.ts), and a test of something else must not reach it. Throttle tests send their own.
 */
export const freshAddress = () => {
  const [high = 0, low = 0] = randomBytes(2);
  return { "CF-Connecting-IP": `198.18.${high}.${low}` };
};

/** A loopback server at /callback: its address, and each query string it was sent. */
export const startCallback = async () => {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    // Only the callback: a browser also asks for /favicon.ico.
    if (url.pathname !== "/callback") return void response.writeHead(404).end();
    received.push(url.searchParams);
    response.end("Signed in: you may close this page.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export class MemoryHost implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  client: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  private verifier = "";
  private discovered: OAuthDiscoveryState | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: HOST_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: StoredOAuthClientInformation) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  discoveryState() {
    return this.discovered;
  }
  /** What the SDK calls on an answer that voids what it kept (invalid_grant drops the tokens), as a host does. */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
  }
}
