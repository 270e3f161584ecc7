// The servers a bench loads: the API on N seeded pets, and the reference Worker (./reference.ts)
// with the API's answers, so that each target has the reference that makes its binding calls
// and the floors that also write back its answer, plainly and through Hono. `npm run bench` and `npm run
// bench:instructions` start them alike.
import path from "node:path";
import { checkReplay, recordAnswers } from "./answers";
import { startBenchServer } from "./bench-server";
import { apiTargets, prepareApi } from "./setup";
import { check, GOALS, status, type Target } from "./targets";

/** The reference Worker's route for each set of binding calls a target is judged against (./reference.ts). */
const CALLS = { limit: "one-limit", limitAndQuery: "limit-and-query" } as const;

type Options = {
  runDir: string;
  count: number;
  log: (message: string) => void;
  /** More arguments for both wrangler dev processes. */
  devArgs: string[];
  /** Added to both wrangler dev processes' environment. */
  env?: Record<string, string>;
};

export const startServers = async ({ runDir, count, log, devArgs, env }: Options) => {
  const { persistTo, secret, envFile, auth } = await prepareApi(runDir, count, log);
  log("starting the API with wrangler dev, then the reference Worker with the API's answers");
  const args = ["--env-file", envFile, ...devArgs];
  const api = await startBenchServer({
    name: "api",
    command: "wrangler dev",
    args: ["--name", "petstore-bench-api", ...args],
    persistTo,
    env,
  });
  const stops = [api.stop];
  const stop = () => Promise.all(stops.map((stopOne) => stopOne()));
  try {
    const byName = apiTargets(api.origin, auth, count, api.pid);
    for (const target of Object.values(byName)) await check(target);
    const answers = await recordAnswers(byName, api.origin);
    const reference = await startBenchServer({
      name: "reference",
      command: "wrangler dev",
      args: ["--config", "bench/reference.toml", ...args, "--var", `ANSWERS:${JSON.stringify(answers)}`],
      // Its own: the API's D1 is not the one its SELECT 1 reads.
      persistTo: path.join(runDir, "reference"),
      env,
      probe: { path: "/bare", isOurs: (response) => response.headers.has("X-Bench-Reference") },
    });
    stops.push(reference.stop);
    const onReference = (calls: string, name: string): Target => ({
      name,
      url: `${reference.origin}/${calls}`,
      ok: status(200),
      server: reference.pid,
    });
    const references = {
      limit: onReference(CALLS.limit, "reference: bare + one rate-limit call"),
      limitAndQuery: onReference(CALLS.limitAndQuery, "reference: one rate-limit call + one query"),
    };
    for (const target of Object.values(references)) await check(target);
    // The target's own request (method, headers, body), answered with the API's answer to it:
    // by the Worker's own code, and through the smallest Hono app (./reference.ts).
    const floors = new Map<Target, Target>();
    const honoFloors = new Map<Target, Target>();
    for (const [name, target] of Object.entries(byName)) {
      const floorOn = (route: string, what: string): Target => ({
        ...target,
        name: `reference: its calls and ${target.name}'s answer${what}`,
        url: `${reference.origin}${route}/${CALLS[GOALS[target.goal].reference]}/${name}`,
        server: reference.pid,
        goal: undefined,
      });
      const floor = floorOn("", "");
      const honoFloor = floorOn("/hono", ", through Hono");
      for (const replay of [floor, honoFloor]) {
        await checkReplay(replay, answers[name as keyof typeof byName], reference.origin);
      }
      floors.set(target, floor);
      honoFloors.set(target, honoFloor);
    }
    const targets = Object.values(byName);
    return {
      api,
      reference,
      secret,
      byName,
      references,
      floors,
      honoFloors,
      stop,
      all: [...targets, ...Object.values(references), ...floors.values(), ...honoFloors.values()],
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
