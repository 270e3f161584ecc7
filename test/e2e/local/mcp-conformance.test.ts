import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) against the
// Worker. The suite sends no credentials, so it talks to a small proxy that adds the key and
// passes every other header on as sent (Host and Origin too, which its DNS-rebinding scenario
// forges). Its server scenarios are of revisions 2025-06-18 and 2025-11-25; most assume the
// reference server's own test tools or features this server does not offer: each is listed
// below with its reason, and the list is held to the suite's own.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const CONFORMANCE = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

const APPLICABLE = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];
const NOT_APPLICABLE: Record<string, string> = {
  "logging-set-level": "no logging capability: the tools log nothing to the client",
  "completion-complete": "no completions capability: no prompts or resource templates to complete",
  "json-schema-2020-12":
    "calls the reference server's json_schema_2020_12_tool; the tools' schemas compile strictly in test/node/mcp/tool-schemas.test.ts",
  "elicitation-sep1034-defaults": "calls the reference server's elicitation tool; no tool here asks the user anything",
  "elicitation-sep1330-enums": "calls the reference server's elicitation tool; no tool here asks the user anything",
  "server-sse-polling": "answers are JSON, never an SSE stream",
  "server-sse-multiple-streams": "answers are JSON, never an SSE stream",
  "tools-call-sampling": "calls the reference server's sampling tool; no tool here samples the client's model",
  "tools-call-elicitation": "calls the reference server's elicitation tool; no tool here asks the user anything",
  "tools-call-with-progress":
    "calls the reference server's test tool; every tool here answers at once, with no progress",
  "tools-call-with-logging": "calls the reference server's test tool; no logging capability",
  "tools-call-error":
    "calls the reference server's test tool; tool errors are shown in test/worker/mcp/arguments.test.ts",
  ...Object.fromEntries(
    ["simple-text", "image", "audio", "embedded-resource", "mixed-content"].map((kind) => [
      `tools-call-${kind}`,
      "calls the reference server's test tool of that content; the tools here return text and structured content",
    ]),
  ),
  ...Object.fromEntries(
    ["list", "read-text", "read-binary", "templates-read", "subscribe", "unsubscribe"].map((kind) => [
      `resources-${kind}`,
      "no resources capability: the server offers tools only",
    ]),
  ),
  ...Object.fromEntries(
    ["list", "get-simple", "get-with-args", "get-embedded-resource", "get-with-image"].map((kind) => [
      `prompts-${kind}`,
      "no prompts capability: the server offers tools only",
    ]),
  ),
};

// The suite's server and key (test/e2e/helpers/global-setup.ts): the checks need no state of their own.
const api = { origin: inject("baseUrl"), apiKey: inject("apiKey") };
let proxy: Server;
let url: string;
const results = mkdtempSync(path.join(tmpdir(), "mcp-conformance-"));

beforeAll(async () => {
  const target = new URL(api.origin);
  proxy = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, authorization: `Bearer ${api.apiKey}` };
    const forwarded = request(
      { hostname: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  url = `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  rmSync(results, { recursive: true, force: true });
});

const conformance = (...args: string[]) =>
  promisify(execFile)(process.execPath, [CONFORMANCE, ...args], { cwd: results, encoding: "utf8" });

describe("the official MCP conformance suite", () => {
  it("has no server scenario that is neither run here nor listed as not applicable", async () => {
    const { stdout } = await conformance("list");
    const server = stdout.slice(0, stdout.indexOf("Client scenarios"));
    const scenarios = [...server.matchAll(/^ {2}- ([\w-]+) \[/gm)].map(([, name]) => name).sort();
    expect(scenarios).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  });

  it.each(APPLICABLE)("passes %s", async (scenario) => {
    const { stdout } = await conformance("server", "--url", url, "--scenario", scenario);
    expect(stdout).toMatch(/Passed: ([1-9]\d*)\/\1, 0 failed/);
  });
});
