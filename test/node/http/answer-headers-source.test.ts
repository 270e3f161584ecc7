import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// An answer written by writeAnswer (src/http/answer-headers.ts) is a Response of its own, so a
// header set earlier with Hono's c.header() never reaches it: the API's Worker declares its
// headers instead. The sign-in Worker (src/auth-server/) is a Worker apart, with no such answers.

/** Hono's c.header(name, value): a write, not a read of the request's (c.req.header), nor its name alone. */
const HEADER_WRITE = /\bc\.header\((?!\))/g;

const sourcesOf = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return file === path.join("src", "auth-server") ? [] : sourcesOf(file);
    return file.endsWith(".ts") ? [file] : [];
  });

describe("the API's headers", () => {
  it("are never set with c.header(), which an answer of writeAnswer would drop", () => {
    const sources = sourcesOf("src");
    // The walk reaches the modules that set headers, and leaves out the sign-in Worker alone.
    for (const file of ["src/http/answer-headers.ts", "src/http/api-key-auth.ts", "src/db/session.ts"]) {
      expect(sources).toContain(file);
    }
    expect(sources.filter((file) => file.startsWith("src/auth-server/"))).toEqual([]);
    const writes = sources.flatMap((file) => [...readFileSync(file, "utf8").matchAll(HEADER_WRITE)].map(() => file));
    expect(writes).toEqual([]);
  });

  it("the check tells a write from a read of the request's headers", () => {
    expect('c.header("Link", link);'.match(HEADER_WRITE)).toHaveLength(1);
    expect('c.req.header("Origin")'.match(HEADER_WRITE)).toBeNull();
    expect("Hono's c.header() does not reach it".match(HEADER_WRITE)).toBeNull();
  });
});
