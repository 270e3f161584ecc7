// The two servers a bench loads: the API on N seeded pets, and its floor (./floor.ts) on a
// copy of the same database, with the API's answers and statements, checked to write back
// each answer byte for byte before anything is counted. The developer's .wrangler/state and
// .dev.vars are left alone: everything lives under the run's own directory.
import { randomBytes } from "node:crypto";
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createKey } from "../scripts/keys";
import { openStores } from "../scripts/lib/stores";
import { seedPets } from "../scripts/seed";
import { checkReplay, recordAnswers } from "./answers";
import { startBenchServer } from "./bench-server";
import { periodicWrites, targetStatements } from "./queries";
import { apiTargets, check, PEER_TARGETS, type Target, type TargetName } from "./targets";

type Options = {
  runDir: string;
  count: number;
  log: (message: string) => void;
  /** Added to both wrangler dev processes' environment (./callgrind-workerd.sh reads it). */
  env: Record<string, string>;
};

/** A side the bench loads: the API, its floor, or the peer (./peer.ts). */
export type Side = "api" | "floor" | "peer";
/**
 * Each target of the API, and what it is set beside: the floor's request for it (the
 * target's own method, headers and body at the floor's route), judged against its goal; and,
 * for the three operations over HTTP, the peer's, reported beside.
 */
export type Pair = { key: TargetName; target: Target; reference: Target; referenceSide: Exclude<Side, "api"> };

/** The API's state under `runDir`: N seeded pets, a key, and its secrets in an env file of the run's own. */
export const prepareApi = async (runDir: string, count: number, log: (message: string) => void) => {
  const persistTo = path.join(runDir, "api");
  const envFile = path.join(runDir, "bench.env");
  writeFileSync(envFile, `CURSOR_SECRET=${randomBytes(32).toString("base64url")}\nCURSOR_SECRET_PREVIOUS=\n`, {
    mode: 0o600,
  });
  log(`seeding ${count} pets`);
  seedPets({ count, persistTo });
  const local = { remote: false, persistTo };
  const stores = await openStores(local);
  const auth = { Authorization: `Bearer ${await createKey("bench", local, stores).finally(stores.close)}` };
  return { persistTo, envFile, auth };
};

export const startServers = async ({ runDir, count, log, env }: Options) => {
  const { persistTo, envFile, auth } = await prepareApi(runDir, count, log);
  // Before either server opens it: the floor reads the same rows from its own copy.
  const floorPersistTo = path.join(runDir, "floor");
  cpSync(path.join(persistTo, "v3", "d1"), path.join(floorPersistTo, "v3", "d1"), { recursive: true });
  // The peer reads them too, and knows the bench's key from its own copy of the keys.
  const peerPersistTo = path.join(runDir, "peer");
  for (const store of ["d1", "kv"]) {
    cpSync(path.join(persistTo, "v3", store), path.join(peerPersistTo, "v3", store), { recursive: true });
  }

  log("starting the API, then its floor with the API's answers and statements");
  const args = ["--env-file", envFile, "--log-level", "log"];
  const api = await startBenchServer({
    name: "api",
    command: "wrangler dev",
    args: ["--name", "petstore-bench-api", ...args],
    persistTo,
    env,
  });
  const stops = [api.stop];
  const stop = () => Promise.all(stops.map((stopOne) => stopOne())).then(() => undefined);
  try {
    const targets: Record<TargetName, Target> = apiTargets(api.origin, auth, count);
    for (const target of Object.values(targets)) await check(target);
    const answers = await recordAnswers(targets, api.origin);
    const floor = await startBenchServer({
      name: "floor",
      command: "wrangler dev",
      args: [
        ...["--config", "bench/floor.toml", ...args],
        ...[
          "--var",
          `ANSWERS:${JSON.stringify(answers)}`,
          "--var",
          `STATEMENTS:${JSON.stringify(await targetStatements())}`,
          "--var",
          `PERIODIC_WRITES:${JSON.stringify(periodicWrites(Date.now()))}`,
        ],
      ],
      persistTo: floorPersistTo,
      env,
      probe: { path: "/ready", isOurs: (response) => response.headers.has("X-Bench-Floor") },
    });
    stops.push(floor.stop);
    const peer = await startBenchServer({
      name: "peer",
      command: "wrangler dev",
      args: ["--config", "bench/peer.toml", ...args],
      persistTo: peerPersistTo,
      env,
      probe: { path: "/ready", isOurs: (response) => response.headers.has("X-Bench-Peer") },
    });
    stops.push(peer.stop);
    const pairs: Pair[] = [];
    for (const [name, target] of Object.entries(targets) as [TargetName, Target][]) {
      const floorTarget = { ...target, name: `floor of ${target.name}`, url: `${floor.origin}/floor/${name}` };
      await checkReplay(floorTarget, answers[name], floor.origin);
      pairs.push({ key: name, target, reference: floorTarget, referenceSide: "floor" });
      if (!PEER_TARGETS.includes(name)) continue;
      const peerTarget = {
        ...target,
        name: `peer of ${target.name}`,
        url: target.url.replace(api.origin, peer.origin),
      };
      await check(peerTarget);
      pairs.push({ key: name, target, reference: peerTarget, referenceSide: "peer" });
    }
    return { pairs, servers: { api, floor, peer }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
