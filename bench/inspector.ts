// wrangler dev's DevTools inspector, for `npm run bench:profile` (./profile.ts) and the
// collection before each load of `npm run bench` (./collect.ts): one protocol
// session, the Worker's bundle as the inspector names it, and a CPU profile's samples summed by
// the module of the bundle (esbuild writes `// <path>` above each module it inlines, unminified).

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
export type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };
type Bundle = { url: string; modules: { line: number; name: string }[] };

/**
 * The first line of each module of an unminified bundle, named as the profile sums it: a file
 * of src/, a package, or wrangler dev's middleware. esbuild writes each path from where it
 * bundles: `node_modules/zod/...` in a checkout, `../<checkout>/node_modules/zod/...` in a
 * worktree whose node_modules links to another checkout's (bench/README.md runs pairs from
 * worktrees). A path that leaves the directory is taken from its first `node_modules/`, `src/`
 * or `.wrangler/`, so that a package's own src/ stays the package's; any other line, a URL
 * among them, is no mark.
 */
export const modulesOf = (source: string) =>
  source.split("\n").flatMap((line, index) => {
    const file = /^\/\/ (?:(?:\.\.\/)+\S*?\/)??((?:node_modules|src|\.wrangler)\/\S+)$/.exec(line)?.[1];
    if (!file) return [];
    const name = file.startsWith("src/")
      ? file
      : (/^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? "wrangler dev's middleware");
    return [{ line: index, name }];
  });

export const inspect = async (inspectorPort: string) => {
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
  /** The Worker's bundle (index.js under .wrangler/tmp) and the first line of each of its modules. */
  const bundle = async (): Promise<Bundle> => {
    await send("Debugger.enable");
    const script = events.find(
      ({ method, params }) =>
        method === "Debugger.scriptParsed" && /\/\.wrangler\/tmp\/[^/]+\/index\.js$/.test(String(params.url)),
    );
    if (!script) throw new Error("the inspector did not name the Worker's bundle");
    const { scriptSource } = await send<{ scriptSource: string }>("Debugger.getScriptSource", {
      scriptId: script.params.scriptId,
    });
    await send("Debugger.disable");
    return { url: String(script.params.url), modules: modulesOf(scriptSource) };
  };
  return { send, bundle, events, close: () => socket.close() };
};

/** What a sample ran: a module of the bundle (with its function, for `detail`), a binding's code, or the runtime. */
const itemOf = ({ callFrame: { functionName, url, lineNumber } }: Node, bundle: Bundle, detail?: string) => {
  if (url === "") return functionName.startsWith("(") ? functionName : `runtime: ${functionName || "(anonymous)"}`;
  if (!bundle.url.endsWith(`/${url}`) && url !== bundle.url) return `binding: ${url}`;
  const module = bundle.modules.findLast(({ line }) => line <= lineNumber)?.name ?? "(outside any module)";
  return module === detail ? `${module}: ${functionName || "(anonymous)"}` : module;
};

/** The sampled microseconds of each item, idle time left out. */
export const samplesByItem = (profile: Profile, bundle: Bundle, detail?: string) => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const items = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === "(idle)") return;
    const item = itemOf(node, bundle, detail);
    items.set(item, (items.get(item) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return items;
};
