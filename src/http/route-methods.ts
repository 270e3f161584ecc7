import type { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { AppEnv } from "../env";

/**
 * The methods the app's routes declare at each path (HEAD with GET), worked out on first
 * use from the app's routes: a 405's Allow (./method-not-allowed.ts) and a preflight's
 * allowed methods (./cors.ts) both read them here.
 */
export const routeMethods = (app: Hono<AppEnv>) => {
  let built: { router: TrieRouter<string[]>; all: string[] } | undefined;
  const build = () => {
    const byPath = new Map<string, Set<string>>();
    for (const { method, path } of app.routes) {
      if (method === "ALL" || method === "HEAD") continue;
      const methods = byPath.get(path) ?? new Set<string>();
      for (const added of method === "GET" ? ["GET", "HEAD"] : [method]) methods.add(added);
      byPath.set(path, methods);
    }
    const router = new TrieRouter<string[]>();
    for (const [path, methods] of byPath) router.add("ALL", path, [...methods]);
    return { router, all: [...new Set([...byPath.values()].flatMap((methods) => [...methods]))] };
  };
  return {
    /** The methods of the routes at `path`; none for a path that no route declares. */
    at: (path: string): string[] => {
      built ??= build();
      return [...new Set(built.router.match("ALL", path)[0].flatMap(([methods]) => methods))];
    },
    /** Every method of the app. */
    all: () => {
      built ??= build();
      return built.all;
    },
  };
};
