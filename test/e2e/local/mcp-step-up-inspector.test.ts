import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../../scripts/lib/supervise";
import { allowSignIn } from "../helpers/allow-sign-in";
import { type Harness, startHarness } from "../helpers/harness";

// The MCP Inspector's CLI, as docs/mcp.md runs it, signed in with a `read` key and then
// calling a tool that needs `write`. On the 403 insufficient_scope its SDK asks for every
// scope, but the CLI then signs in again for the scope its last grant had: its refresh is
// refused (src/auth-server/step-up.ts; answered, the CLI stopped with "Unexpected: auth()
// returned AUTHORIZED without authorization code"), the new sign-in asks for `read` alone, and
// the call ends with auth_required. `--relogin` forgets the grant and signs in for every scope,
// and the call succeeds. The page is driven over HTTP, as a browser without script would.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const INSPECTOR = path.join(ROOT, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
let api: Harness;
let home: string;
beforeAll(async () => {
  api = await startHarness({ vars: { ACCESS_LOG: "off" } });
  home = mkdtempSync(path.join(tmpdir(), "petstore-inspector-step-up-"));
});
afterAll(async () => {
  await api?.close();
  rmSync(home, { recursive: true, force: true });
});

/**
 * The CLI with `args`, on this run's home (where it keeps its client and tokens) and a callback
 * port of its own; each sign-in it opens is allowed with `key`. Its exit code, output, and the
 * scope each sign-in asked for.
 */
const inspector = async (args: string[], key: string) => {
  const cli = spawn(process.execPath, [INSPECTOR, "--cli", `${api.origin}/mcp`, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOME: home,
      MCP_AUTO_OPEN_ENABLED: "true",
      MCP_OAUTH_CALLBACK_URL: `http://127.0.0.1:${await freePort()}/oauth/callback`,
      BROWSER: "false",
      // Its tokens kept in a file of its home between runs, as on a desktop (no keychain here).
      MCP_INSPECTOR_SECRET_STORE: "file",
    },
  });
  const output = { stdout: "", stderr: "" };
  const asked: string[] = [];
  const signIns: Promise<void>[] = [];
  cli.stdout.on("data", (chunk) => {
    output.stdout += chunk;
  });
  cli.stderr.on("data", (chunk) => {
    output.stderr += chunk;
    // Each address it prints, once: the page it opened.
    const addresses = [...output.stderr.matchAll(/Please navigate to: (\S+)\n/g)].map(([, address = ""]) => address);
    for (const address of addresses.slice(signIns.length)) {
      asked.push(new URL(address).searchParams.get("scope") ?? "");
      signIns.push(allowSignIn(api.origin, address, key));
    }
  });
  const code = await new Promise<number | null>((resolve) => cli.on("exit", resolve));
  await Promise.all(signIns);
  return { code, ...output, asked };
};

const CREATE = ["--method", "tools/call", "--tool-name", "create_pet", "--tool-arg", "categoryId=1"];

it("signs in again on a write call with a read grant, but only for what it was granted, and stops; --relogin signs in for every scope and the call succeeds", async () => {
  const readKey = await api.issueKey({ label: "the Inspector's read key", scopes: ["read"] });
  const listed = await inspector(["--method", "tools/list"], readKey);
  expect(listed.code, listed.stderr).toBe(0);
  // It asks for every scope the server names; the read key grants read.
  expect(listed.asked).toEqual(["read write"]);
  expect(JSON.parse(listed.stdout).tools).toHaveLength(3);

  const writeKey = await api.issueKey({ label: "the Inspector's write key", scopes: ["read", "write"] });
  // The 403 insufficient_scope; its refresh refused; a new sign-in, for `read` alone; the 403 again.
  const stepped = await inspector([...CREATE, "--tool-arg", "name=Refused"], writeKey);
  expect(stepped.asked).toEqual(["read"]);
  expect(stepped.code).toBe(3);
  // Its machine-readable failure, on stderr.
  expect(stepped.stderr).toContain('{"error":{"code":"auth_required"');

  const relogged = await inspector(["--relogin", ...CREATE, "--tool-arg", "name=Stepped"], writeKey);
  expect(relogged.code, relogged.stderr).toBe(0);
  expect(relogged.asked).toEqual(["read write"]);
  expect(JSON.parse(relogged.stdout).structuredContent.name).toBe("Stepped");
  const listing = await fetch(`${api.origin}/v1/pets?limit=100`, {
    headers: { Authorization: `Bearer ${api.apiKey}` },
  });
  const names = ((await listing.json()) as { name: string }[]).map(({ name }) => name);
  expect(names).toContain("Stepped");
  expect(names).not.toContain("Refused");
});
