import type { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { AppEnv } from "../env";

/**
 * The methods the app's routes declare at each path (HEAD with GET), worked out on first
 * use from the app's routes: a 405's Allow (./method-not-allowed.ts) and a preflight's
 * allowed methods (./cors.ts) both read them here.
 */
export const routeMethods = (app: Hono<AppEnv>) => {
  let router: TrieRouter<string[]> | undefined;
  let all: string[] = [];
  const methodsByPath = () => {
    const byPath = new Map<string, Set<string>>();
    for (const { method, path } of app.routes) {
      if (method === "ALL" || method === "HEAD") continue;
      const methods = byPath.get(path) ?? new Set<string>();
      for (const added of method === "GET" ? ["GET", "HEAD"] : [method]) methods.add(added);
      byPath.set(path, methods);
    }
    router = new TrieRouter();
    for (const [path, methods] of byPath) router.add("ALL", path, [...methods]);
    all = [...new Set([...byPath.values()].flatMap((methods) => [...methods]))];
    return router;
  };
  return {
    /** The methods of the routes at `path`; none for a path that no route declares. */
    at: (path: string): string[] => [
      ...new Set((router ?? methodsByPath()).match("ALL", path)[0].flatMap(([methods]) => methods)),
    ],
    /** Every method of the app. */
    all: () => {
      router ?? methodsByPath();
      return all;
    },
  };
};
