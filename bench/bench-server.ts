// Every server the bench starts is `wrangler dev` without its local trace collector. Under
// wrangler 4.155 it is on by default: wrangler dev streams each request's trace events (its
// spans and log lines) to a collector Worker in the Worker's own workerd, which writes them
// to SQLite for the local explorer. Production runs nothing of the kind in a Worker's
// process, and here it cost nearly as much as the rest of a request, counted in the Worker's
// workerd on both sides (bench/README.md).
import { checkNoLocalTraces, LOCAL_TRACES_SWITCH, startDevServer } from "../scripts/lib/dev-server";

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
