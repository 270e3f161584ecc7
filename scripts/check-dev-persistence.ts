// The local-development promise, checked for real: `npm run dev` serves the API with
// a key it printed, and a pet created before a restart is there after it. Runs
// scripts/dev.ts twice on a free port against a scratch state directory.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });

/** Starts `npm run dev` (scripts/dev.ts) and resolves with the key it printed once the server is ready. */
const startDev = (port: number, persistTo: string) =>
  new Promise<{ child: ChildProcess; key: string }>((resolve, reject) => {
    const child = spawn("npx", ["tsx", "scripts/dev.ts", "--port", String(port), "--persist-to", persistTo], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`npm run dev did not become ready:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const key = /ps_test_[0-9A-Za-z]{43}/.exec(output)?.[0];
      if (key && /Ready on/.test(output)) {
        clearTimeout(timer);
        resolve({ child, key });
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("exit", (code) => reject(new Error(`npm run dev exited with ${code}:\n${output}`)));
  });

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.removeAllListeners("exit");
    child.on("exit", () => resolve());
    if (child.pid) process.kill(-child.pid, "SIGTERM");
  });

const persistTo = mkdtempSync(path.join(tmpdir(), "petstore-dev-"));
const port = await freePort();
const base = `http://127.0.0.1:${port}/v1/pets`;
let running: ChildProcess | undefined;
try {
  const first = await startDev(port, persistTo);
  running = first.child;
  const created = await fetch(base, {
    method: "POST",
    headers: { Authorization: `Bearer ${first.key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Survivor", categoryId: 1 }),
  });
  if (created.status !== 201) throw new Error(`POST answered ${created.status}: ${await created.text()}`);
  const pet = (await created.json()) as { id: number };
  await stop(first.child);

  const second = await startDev(port, persistTo);
  running = second.child;
  if (second.key !== first.key) throw new Error("npm run dev issued a new key although the old one still exists");
  const read = await fetch(`${base}/${pet.id}`, { headers: { Authorization: `Bearer ${second.key}` } });
  const readBack = await read.json();
  if (read.status !== 200 || JSON.stringify(readBack) !== JSON.stringify(pet)) {
    throw new Error(`after a restart, GET answered ${read.status} ${JSON.stringify(readBack)}`);
  }
  console.log(`npm run dev: pet ${pet.id} created, server restarted, pet read back with the same key.`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  if (running) await stop(running);
  rmSync(persistTo, { recursive: true, force: true });
}
