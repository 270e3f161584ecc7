import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The core (src/core/) knows no door: none of its files names Hono (an import, or a
// declaration into its types) or a door's folder. Each door imports the core, never back.

const CORE = "src/core";
const DOORS = ["http", "rest", "mcp", "oauth", "auth-server", "document"];

/** What in a file's text ties it to a door: each module it names that is Hono's or a door's. */
const doorsNamed = (text: string) =>
  [...text.matchAll(/(?:from|import|declare module)\s*\(?\s*["']([^"']+)["']/g)]
    .map(([, module]) => module as string)
    .filter(
      (module) =>
        module === "hono" || module.startsWith("hono/") || DOORS.some((door) => module.startsWith(`../${door}`)),
    );

describe("the core", () => {
  it("names neither Hono nor a door, in any of its files", () => {
    const files = readdirSync(CORE).filter((name) => name.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(0);
    const named = files.flatMap((name) =>
      doorsNamed(readFileSync(path.join(CORE, name), "utf8")).map((module) => `${name}: ${module}`),
    );
    expect(named).toEqual([]);
  });

  it("would be found naming one: an import, a type import, a declaration into Hono's types", () => {
    expect(doorsNamed('import { x } from "../http/errors";')).toEqual(["../http/errors"]);
    expect(doorsNamed('import type { Context } from "hono";')).toEqual(["hono"]);
    expect(doorsNamed('declare module "hono" {}')).toEqual(["hono"]);
    expect(doorsNamed('import { cors } from "hono/cors";\nimport { r } from "../mcp/tools";')).toEqual([
      "hono/cors",
      "../mcp/tools",
    ]);
    expect(doorsNamed('import { x } from "../db/client";\nimport { y } from "./queries";')).toEqual([]);
  });
});
