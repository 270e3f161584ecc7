// `npm run bench:profile [-- --seconds S --count N]`: where the Worker's CPU time goes,
// item by item, for each authenticated target: a V8 CPU profile of the Worker's isolate
// under load (through wrangler dev's inspector), its samples summed by what they ran:
// each file of src/ on its own, each package as one, and the runtime's built-ins and
// bindings by name. What it reports and how to read it is in bench/README.md.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { utcDay } from "../src/lib/dates";
import { startBenchServer } from "./bench-server";
import { cpuOf, difference } from "./cpu";
import { apiTargets, MIN_PETS, prepareApi, wholeNumber } from "./setup";
import { check, type Target } from "./targets";

const RUN_DIR = path.resolve(".wrangler/bench/profile");
const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    count: { type: "string", default: "1000" },
    // An item (e.g. "hono") to break down by function: its lines become "<item>: <function>".
    detail: { type: "string" },
  },
});
const [seconds, count] = [wholeNumber(values.seconds, "seconds", 1), wholeNumber(values.count, "count", MIN_PETS)];
const log = (message: string) => console.log(`[bench:profile] ${message}`);

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** One DevTools protocol session over wrangler dev's inspector (the Worker's own allows one client: wrangler). */
const inspect = async (inspectorPort: string) => {
  // wrangler's inspector proxy answers only pages of a local origin.
  const socket = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`, {
    headers: { Origin: "http://127.0.0.1" },
  } as unknown as string[]);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", reject);
  });
  let lastId = 0;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  const events: { method: string; params: Record<string, unknown> }[] = [];
  socket.addEventListener("message", ({ data }) => {
    const message = JSON.parse(String(data));
    if (message.id === undefined) events.push(message);
    else if (message.error) pending.get(message.id)?.reject(new Error(`inspector: ${message.error.message}`));
    else pending.get(message.id)?.resolve(message.result);
  });
  const send = <T>(method: string, params = {}) =>
    new Promise<T>((resolve, reject) => {
      pending.set(++lastId, { resolve: resolve as (result: unknown) => void, reject });
      socket.send(JSON.stringify({ id: lastId, method, params }));
    });
  return { send, events, close: () => socket.close() };
};

const WRANGLER_MIDDLEWARE = "wrangler dev's middleware (local only)";

/** The bundle's module boundaries: esbuild writes `// <path>` above each module it inlines. */
const modulesOf = (bundle: string) =>
  bundle.split("\n").flatMap((line, index) => {
    const source = /^\/\/ ((?:node_modules|src|\.wrangler)\/\S+)$/.exec(line)?.[1];
    if (!source) return [];
    const name = source.startsWith("src/")
      ? source
      : source.startsWith("node_modules/")
        ? (/^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1] ?? source)
        : WRANGLER_MIDDLEWARE;
    return [{ line: index, name: name === "wrangler" ? WRANGLER_MIDDLEWARE : name }];
  });

type Bundle = { url: string; modules: { line: number; name: string }[] };

const itemOf = (node: Node, bundle: Bundle) => {
  const { functionName, url, lineNumber } = node.callFrame;
  if (url === "") return functionName.startsWith("(") ? functionName : `runtime: ${functionName || "(anonymous)"}`;
  // The profile names the bundle by its file name; the inspector's proxy, by its path.
  if (bundle.url.endsWith(`/${url}`)) {
    return bundle.modules.findLast((module) => module.line <= lineNumber)?.name ?? "(bundle, outside any module)";
  }
  return `binding code: ${url.startsWith("cloudflare-internal:") ? url.split(":")[1] : path.basename(url)}`;
};

const main = async () => {
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  const { persistTo, envFile, auth } = await prepareApi(RUN_DIR, count, log);
  // Unminified, so that the bundle's module comments and names are there to read.
  const args = ["--name", "petstore-bench-api", "--env-file", envFile, "--minify=false"];
  const api = await startBenchServer({ name: "api", command: "wrangler dev", args, persistTo });
  const session = await inspect(api.inspectorPort);
  try {
    await session.send("Debugger.enable");
    // wrangler dev's bundle, as the inspector names it: .wrangler/tmp/dev-*/index.js.
    const script = session.events.find(
      (event) =>
        event.method === "Debugger.scriptParsed" &&
        /\/\.wrangler\/tmp\/[^/]+\/index\.js$/.test(String(event.params.url)),
    );
    if (!script) throw new Error("the inspector did not name the Worker's bundle");
    const { scriptSource } = await session.send<{ scriptSource: string }>("Debugger.getScriptSource", {
      scriptId: script.params.scriptId,
    });
    await session.send("Debugger.disable");
    const bundle: Bundle = { url: String(script.params.url), modules: modulesOf(scriptSource) };
    await session.send("Profiler.enable");
    const targets: Target[] = Object.values(apiTargets(api.origin, auth, count, api.pid));
    const columns: { target: Target; perItem: Map<string, number>; workerUs: number; jsUs: number }[] = [];
    for (const target of targets) {
      await check(target);
      const load = {
        url: target.url,
        method: target.method ?? "GET",
        headers: target.headers,
        body: target.body,
        connections: 8,
      };
      await autocannon({ ...load, duration: 1 });
      log(`profiling ${target.name} for ${seconds} s`);
      const before = cpuOf(api.pid);
      await session.send("Profiler.start");
      const result = await autocannon({ ...load, duration: seconds });
      const { profile } = await session.send<{ profile: Profile }>("Profiler.stop");
      const requests = result["2xx"];
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const perItem = new Map<string, number>();
      profile.samples.forEach((id, index) => {
        const node = byId.get(id);
        if (!node || node.callFrame.functionName === "(idle)") return;
        let item = itemOf(node, bundle);
        if (item === values.detail) item += `: ${node.callFrame.functionName || "(anonymous)"}`;
        perItem.set(item, (perItem.get(item) ?? 0) + (profile.timeDeltas[index] ?? 0) / requests);
      });
      const jsUs = [...perItem.values()].reduce((sum, us) => sum + us, 0);
      columns.push({ target, perItem, workerUs: difference(cpuOf(api.pid), before).worker / requests, jsUs });
    }
    const items = [...new Set(columns.flatMap(({ perItem }) => [...perItem.keys()]))]
      .map((item) => ({ item, us: columns.map(({ perItem }) => perItem.get(item) ?? 0) }))
      .toSorted((a, b) => Math.max(...b.us) - Math.max(...a.us));
    const cell = (us: number) => (us >= 0.5 ? us.toFixed(0) : "");
    const report = [
      `\`npm run bench:profile\`, ${utcDay(Date.now())}: ${count} pets, 8 connections, ${seconds} s per target under the profiler, µs per answered request.`,
      "",
      `| Item | ${columns.map(({ target }) => target.name).join(" | ")} |`,
      `| --- |${" ---: |".repeat(columns.length)}`,
      ...items.map(({ item, us }) => `| ${item} | ${us.map(cell).join(" | ")} |`),
      `| **The isolate's JavaScript, as sampled** | ${columns.map(({ jsUs }) => jsUs.toFixed(0)).join(" | ")} |`,
      `| **The Worker's workerd in all (/proc)** | ${columns.map(({ workerUs }) => workerUs.toFixed(0)).join(" | ")} |`,
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(path.join(RUN_DIR, "..", "profile.md"), `${report}\n`);
    log("written to .wrangler/bench/profile.md");
  } finally {
    session.close();
    await api.stop();
  }
};

main().catch((error: Error) => {
  console.error(`[bench:profile] failed: ${error.message}`);
  process.exit(1);
});
