// Every server the bench starts is `wrangler dev` without its local trace collector. Under
// wrangler 4.155 it is on by default: wrangler dev streams each request's trace events (its
// spans and log lines) to a collector Worker in the Worker's own workerd, which writes them
// to SQLite for the local explorer. Production runs nothing of the kind in a Worker's
// process, and here it cost nearly as much as the rest of a request, counted in the Worker's
// workerd on both sides (bench/README.md).
import { existsSync } from "node:fs";
import path from "node:path";
import { startDevServer } from "../scripts/lib/dev-server";

/** wrangler's switch for the collector (on unless set to false). */
const LOCAL_TRACES_SWITCH = "X_LOCAL_OBSERVABILITY";

/**
 * The collector's store under --persist-to, which wrangler dev makes when it starts the
 * collector: there, the switch above was not obeyed (a wrangler that renamed it), and the
 * run stops rather than measure the collector with the API.
 */
export const checkNoLocalTraces = (persistTo: string) => {
  const store = path.join(persistTo, "v3", "observability");
  if (existsSync(store)) {
    throw new Error(
      `wrangler dev started its local trace collector (${store}) although ${LOCAL_TRACES_SWITCH} is false`,
    );
  }
};

type BenchServerOptions = Parameters<typeof startDevServer>[0] & { persistTo: string };

export const startBenchServer = async (options: BenchServerOptions) => {
  const server = await startDevServer({ ...options, env: { ...options.env, [LOCAL_TRACES_SWITCH]: "false" } });
  try {
    checkNoLocalTraces(options.persistTo);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
};
