import { connect, createServer } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { npmScript } from "../global-setup";
import { type Harness, startHarness } from "../harness";

// `npm run smoke`, as an operator or the deploy workflow runs it: given the base address
// that the document's servers name (with /v1), the key in SMOKE_KEY, against a Worker of
// its own (test/e2e/harness.ts).

let server: Harness;
let key = "";
beforeAll(async () => {
  server = await startHarness();
  key = server.apiKey;
}, 120_000);
afterAll(() => server?.close());

const smoke = async (baseUrl: string, env: Record<string, string> = {}) => {
  const { code, stdout, stderr } = await npmScript("smoke", ["--base-url", baseUrl], { SMOKE_KEY: "", ...env });
  return { code, output: stdout + stderr };
};

/**
 * A TCP relay to the server that keeps every byte the clients sent, unchanged: what
 * reached "Cloudflare", headers included, whatever the framing of each test.
 */
const recordingRelay = async (target: string) => {
  const { hostname, port } = new URL(target);
  const connections: Buffer[][] = [];
  const relay = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    const sent: Buffer[] = [];
    connections.push(sent);
    client.on("data", (chunk) => sent.push(chunk));
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const address = relay.address();
  if (!address || typeof address === "string") throw new Error("the relay has no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    sentText: () => connections.map((sent) => Buffer.concat(sent).toString("latin1")).join("\n"),
    close: () => new Promise((resolve) => relay.close(resolve)),
  };
};

it("passes against the base address with /v1, the key taken from SMOKE_KEY; with --version, sends every request to that version of the environment's Worker", async () => {
  const relay = await recordingRelay(server.origin);
  try {
    const version = "0b5e3a8c-7a51-4d2e-9c3f-4a8e2b1d6f70";
    const { code, stdout, stderr } = await npmScript(
      "smoke",
      ["--base-url", `${relay.origin}/v1`, "--env", "production", "--version", version],
      { SMOKE_KEY: key },
    );
    expect(stdout + stderr).toMatch(/Test Files +\S*\d+ passed/);
    expect(code).toBe(0);
    const sent = relay.sentText();
    // Not anchored to a line: on a kept-alive connection a request follows the last body directly.
    const requests = sent.match(/(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \/\S* HTTP\/1\.1\r\n/g) ?? [];
    const overrides = sent.match(/^cloudflare-workers-version-overrides: (.*)\r$/gim) ?? [];
    expect(requests.length).toBeGreaterThan(20);
    expect(overrides).toHaveLength(requests.length);
    expect(new Set(overrides.map((line) => line.split(": ")[1]?.trim()))).toEqual(
      new Set([`petstore-production="${version}"`]),
    );
  } finally {
    await relay.close();
  }
}, 120_000);

it.concurrent("refuses --version without --env, and a version that is not a Worker version id", async () => {
  for (const [args, message] of [
    [["--version", "0b5e3a8c-7a51-4d2e-9c3f-4a8e2b1d6f70"], /Usage: /],
    [["--env", "production", "--version", "v2"], /Not a Worker version id: v2/],
    [["--env", "dev", "--version", "0b5e3a8c-7a51-4d2e-9c3f-4a8e2b1d6f70"], /--env must be staging or production/],
  ] as const) {
    const { code, stdout, stderr } = await npmScript("smoke", ["--base-url", server.origin, ...args], {
      SMOKE_KEY: key,
    });
    expect(code).not.toBe(0);
    expect(stdout + stderr).toMatch(message);
  }
});

it.concurrent.each([
  ["a path other than /v1", "/v2", /must be the API's base address/],
  ["a query", "/v1?x=1", /must be the API's base address/],
])("refuses a base URL with %s, saying what it takes", async (_what, suffix, message) => {
  const { code, output } = await smoke(`${server.origin}${suffix}`, { SMOKE_KEY: key });
  expect(code).not.toBe(0);
  expect(output).toMatch(message);
});

it.concurrent("refuses to run without a key, saying where to give it", async () => {
  const { code, output } = await smoke(server.origin);
  expect(code).not.toBe(0);
  expect(output).toMatch(/--key, or in SMOKE_KEY/);
});
