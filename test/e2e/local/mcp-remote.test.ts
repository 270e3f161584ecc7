import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../../scripts/lib/supervise";
import { allowSignIn } from "../helpers/allow-sign-in";
import { type Harness, startHarness } from "../helpers/harness";

// mcp-remote, the bridge that desktop hosts start as `npx -y mcp-remote <url> --transport
// http-only` (docs/mcp.md), spoken to over its stdio as such a host does: given no header, it
// signs in through the page (a `read` key: the page says so and grants `read`), lists the
// tools, and on a write call's 403 insufficient_scope opens a new sign-in for every scope; with
// a key that may write, the call succeeds. The page is driven over HTTP.

const PROXY = path.join(
  path.dirname(createRequire(import.meta.url).resolve("mcp-remote/package.json")),
  "dist/proxy.js",
);
let api: Harness;
let home: string;
beforeAll(async () => {
  api = await startHarness({ vars: { ACCESS_LOG: "off" } });
  home = mkdtempSync(path.join(tmpdir(), "petstore-mcp-remote-"));
});
afterAll(async () => {
  await api?.close();
  rmSync(home, { recursive: true, force: true });
});

type Answer = { id: number; result?: { tools?: unknown[]; structuredContent?: { name: string } }; error?: unknown };

/** mcp-remote on this run's home and a callback port of its own; each sign-in it prints is allowed with the next of `keys`. */
const bridge = async (keys: string[]) => {
  const child = spawn(
    process.execPath,
    [PROXY, `${api.origin}/mcp`, String(await freePort()), "--transport", "http-only"],
    {
      env: { ...process.env, HOME: home, BROWSER: "false" },
    },
  );
  let stderr = "";
  const asked: string[] = [];
  const signIns: Promise<void>[] = [];
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
    const addresses = [...stderr.matchAll(/Please authorize this client by visiting:\n(\S+)\n/g)];
    for (const [, address = ""] of addresses.slice(signIns.length)) {
      asked.push(new URL(address).searchParams.get("scope") ?? "");
      signIns.push(allowSignIn(api.origin, address, keys[signIns.length] ?? ""));
    }
  });
  const waiting = new Map<number, (answer: Answer) => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const answer = JSON.parse(line) as Answer;
    waiting.get(answer.id)?.(answer);
  });
  let id = 0;
  const request = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Answer>((resolve) => {
      waiting.set(++id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const notify = (method: string) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  const close = async () => {
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill();
    await exited;
    await Promise.all(signIns);
  };
  return { request, notify, asked, close };
};

it("signs in through the page, then steps up from a read grant to a write call through a new sign-in", async () => {
  const readKey = await api.issueKey({ label: "mcp-remote's read key", scopes: ["read"] });
  const writeKey = await api.issueKey({ label: "mcp-remote's write key", scopes: ["read", "write"] });
  const host = await bridge([readKey, writeKey]);
  try {
    const clientInfo = { name: "petstore-e2e-desktop-host", version: "1.0.0" };
    const initialized = await host.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo,
    });
    expect(initialized.error).toBeUndefined();
    host.notify("notifications/initialized");
    expect((await host.request("tools/list")).result?.tools).toHaveLength(3);
    expect(host.asked).toEqual(["read write"]);

    const created = await host.request("tools/call", {
      name: "create_pet",
      arguments: { name: "Bridged", categoryId: 1 },
    });
    expect(created.result?.structuredContent?.name).toBe("Bridged");
    expect(host.asked).toEqual(["read write", "read write"]);
  } finally {
    await host.close();
  }
});
