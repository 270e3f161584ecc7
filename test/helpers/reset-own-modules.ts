// The worker project's files share a runtime (isolate: false in vitest.config.ts), and each
// starts with the Worker's modules evaluated afresh: the state of an isolate of its own
// (empty caches, no pending usage counts) is in the repository's modules. The libraries'
// modules (node_modules: zod, hono, drizzle, the OAuth provider) hold no state of a
// request's or a key's, so they are kept: evaluating them again for each file was about a quarter
// of the project's CPU time, for nothing that a test could see.
//
// vi.resetModules() resets every module; this resets those of the repository alone, as it
// does (vitest/dist/chunks/utils.*.js, resetModules), in the module graph that vitest keeps
// in the worker's state. A vitest without that graph fails every file here, loudly.

type ModuleNode = { promise?: unknown; exports?: unknown; evaluated: boolean; importers: Set<string> };
type WorkerState = { evaluatedModules?: { idToModuleMap?: Map<string, ModuleNode> } };

/** Vitest's own modules, which vi.resetModules() keeps too. */
const VITEST = /\/vitest\/dist\/|vitest-virtual-\w+\/dist|@vitest\/dist|^mock:/;

export const resetOwnModules = () => {
  const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
  const modules = state?.evaluatedModules?.idToModuleMap;
  if (!modules) throw new Error("vitest's module graph is not where test/helpers/reset-own-modules.ts looks for it");
  for (const [id, node] of modules) {
    if (VITEST.test(id) || id.includes("/node_modules/")) continue;
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
    node.importers.clear();
  }
};
