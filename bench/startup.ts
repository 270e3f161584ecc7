// Startup: the instructions a Worker's workerd executes from its start to the Worker's first
// answer, for the API and for its floor, each started afresh under callgrind. Every cold
// isolate in every location pays this before it answers anything; what the API pays over the
// floor is its own: its bundle's parsing and global scope, and its first request's path.
import path from "node:path";
import { startBenchServer } from "./bench-server";
import { countedProcess, dumpInstructions } from "./callgrind";

type Options = {
  runDir: string;
  callgrindDir: string;
  /** Added to wrangler dev's environment (./callgrind-workerd.sh reads it). */
  env: Record<string, string>;
  /** Each side's wrangler dev arguments beside its configuration. */
  args: string[];
  runs: number;
  log: (message: string) => void;
};

/**
 * Each side alone in its workerd (the API without the sign-in Worker, which production runs
 * apart), and a first request that makes no binding call on either: the API's listing
 * without a key (its 401), the floor's readiness probe.
 */
const SIDES = {
  api: {
    args: ["--config", "wrangler.toml", "--name", "petstore-bench-api"],
    probe: {
      path: "/v1/pets",
      isOurs: (response: Response) => response.status === 401 && response.headers.has("X-Request-Id"),
    },
  },
  floor: {
    args: ["--config", "bench/floor.toml"],
    probe: { path: "/ready", isOurs: (response: Response) => response.headers.has("X-Bench-Floor") },
  },
};

/** The instructions from start to first answer of each side, run by run, the sides alternating. */
export const startupCounts = async ({ runDir, callgrindDir, env, args, runs, log }: Options) => {
  const counts: Record<keyof typeof SIDES, number[]> = { api: [], floor: [] };
  for (let run = 0; run < runs; run++) {
    for (const side of ["api", "floor"] as const) {
      log(`startup ${run + 1} of ${runs}: the ${side === "api" ? "API" : "floor"}`);
      const server = await startBenchServer({
        name: `${side} (startup)`,
        command: "wrangler dev",
        args: [...SIDES[side].args, ...args],
        persistTo: path.join(runDir, `startup-${side}-${run}`),
        env,
        probe: SIDES[side].probe,
      });
      try {
        const instructions = dumpInstructions(callgrindDir, countedProcess(callgrindDir, server.pid));
        counts[side].push(instructions);
        log(`${(instructions / 1e6).toFixed(3)} million instructions to its first answer`);
      } finally {
        await server.stop();
      }
    }
  }
  return counts;
};
