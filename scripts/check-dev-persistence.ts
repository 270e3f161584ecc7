// The local-development promise, checked for real: `npm run dev` serves the API with
// a key it printed, and a pet created before a restart is there after it. Runs
// scripts/dev.ts twice against one scratch state directory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { API_KEY_PATTERN } from "../src/api-keys";
import { type DevServer, startDevServer } from "./dev-server";

/** Starts `npm run dev` and returns it with the key it printed. */
const startDev = async (persistTo: string) => {
  const server = await startDevServer({ name: "the persistence check", command: "npm run dev", persistTo });
  // scripts/dev.ts prints the key alone on its line.
  const key = server
    .output()
    .split("\n")
    .map((line) => line.trim())
    .find((line) => API_KEY_PATTERN.test(line));
  if (!key) {
    await server.stop();
    throw new Error(`npm run dev printed no key:\n${server.output()}`);
  }
  return { server, key };
};

const persistTo = mkdtempSync(path.join(tmpdir(), "petstore-dev-"));
let running: DevServer | undefined;
try {
  const first = await startDev(persistTo);
  running = first.server;
  const created = await fetch(`${first.server.origin}/v1/pets`, {
    method: "POST",
    headers: { Authorization: `Bearer ${first.key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Survivor", categoryId: 1 }),
  });
  if (created.status !== 201) throw new Error(`POST answered ${created.status}: ${await created.text()}`);
  const pet = (await created.json()) as { id: number };
  await first.server.stop();
  running = undefined;

  const second = await startDev(persistTo);
  running = second.server;
  if (second.key !== first.key) throw new Error("npm run dev issued a new key although the old one still exists");
  const read = await fetch(`${second.server.origin}/v1/pets/${pet.id}`, {
    headers: { Authorization: `Bearer ${second.key}` },
  });
  const readBack = await read.json();
  if (read.status !== 200 || JSON.stringify(readBack) !== JSON.stringify(pet)) {
    throw new Error(`after a restart, GET answered ${read.status} ${JSON.stringify(readBack)}`);
  }
  console.log(`npm run dev: pet ${pet.id} created, server restarted, pet read back with the same key.`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await running?.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
