import { connect, createServer } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { smokeArguments, smokeTarget } from "../../../scripts/smoke";
import { generateApiKey } from "../../../src/keys/api-key";
import { type Harness, startHarness } from "../helpers/harness";
import { npmScript } from "../helpers/npm-script";

// `npm run smoke`, as an operator or the deploy workflow runs it: given the base address
// that the document's servers name (with /v1), the key in SMOKE_KEY, against a Worker of
// its own (test/e2e/helpers/harness.ts).

let server: Harness;
let key = "";
/** A production key (ps_live_), which `--env production` requires. */
let liveKey = "";
beforeAll(async () => {
  server = await startHarness();
  key = server.apiKey;
  liveKey = await server.issueKey({ label: "production's smoke test" }, generateApiKey("production"));
});
afterAll(() => server?.close());

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
      { SMOKE_KEY: liveKey },
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
});

it("refuses bad arguments, a test key for production and a live key over plain HTTP, saying what it takes", async () => {
  const origin = server.origin;
  for (const [args, smokeKey, message] of [
    [["--base-url", origin, "--version", "0b5e3a8c-7a51-4d2e-9c3f-4a8e2b1d6f70"], key, /Usage: /],
    [["--base-url", origin, "--env", "production", "--version", "v2"], liveKey, /Not a Worker version id: v2/],
    [
      ["--base-url", origin, "--env", "dev", "--version", "0b5e3a8c-7a51-4d2e-9c3f-4a8e2b1d6f70"],
      key,
      /--env must be staging or production/,
    ],
    [["--base-url", `${origin}/v2`], key, /must be the API's base address/],
    [["--base-url", `${origin}/v1?x=1`], key, /must be the API's base address/],
    [["--base-url", origin], undefined, /--key, or in SMOKE_KEY/],
    [["--base-url", origin], `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`, /fails its checksum/],
    [
      ["--base-url", origin, "--env", "production", "--version", "0b5e3a8c-7a51-4d2e-9c3f-4a8e2b1d6f70"],
      key,
      /a ps_test_ key, which production never issues/,
    ],
    // Production's address names it, with or without --env.
    [["--base-url", "https://petstore-production.acme.workers.dev/v1"], key, /a ps_test_ key, which production/],
    [["--base-url", "http://petstore-staging.acme.workers.dev/v1"], liveKey, /a live key, which goes over https only/],
    [["--base-url", "http://10.0.0.7:8787/v1"], liveKey, /a live key, which goes over https only/],
  ] as const) {
    await expect(smokeArguments([...args], smokeKey), args.join(" ")).rejects.toThrow(message);
  }
  // A custom domain of production's routes is production's too; a live key may go to this machine over HTTP.
  const production = { workerName: "petstore-production", routeHosts: ["api.example.com"] };
  expect(() => smokeTarget("https://eu.api.example.com/v1", key, undefined, production)).toThrow(/a ps_test_ key/);
  expect(smokeTarget("http://[::1]:8787/v1", liveKey, undefined, production).baseUrl).toBe("http://[::1]:8787");
  expect(smokeTarget("https://petstore-staging.acme.workers.dev/v1", key, undefined, production).key).toBe(key);
});

it("exits non-zero with the reason when refused, before testing anything", async () => {
  const { code, stdout, stderr } = await npmScript("smoke", ["--base-url", server.origin], { SMOKE_KEY: "" });
  expect(code).not.toBe(0);
  expect(stdout + stderr).toMatch(/^Give the API key with --key, or in SMOKE_KEY\.$/m);
  expect(stdout + stderr).not.toMatch(/Test Files/);
});
