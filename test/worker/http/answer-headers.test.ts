import { describe, expect, it } from "vitest";
import {
  declareHeaders,
  declareOwnHeader,
  finishAnswer,
  honourHeaderCalls,
  withHeaders,
  writeAnswer,
} from "../../../src/http/answer-headers";
import { headerPart } from "../../../src/http/header-parts";
import { newApp } from "../../../src/http/router";

// The two ways the declared headers reach an answer (src/http/answer-headers.ts), side by side
// on one app: born with them (writeAnswer), or given them on the way out (finishAnswer), for
// an answer that Hono's helpers wrote. Each route answers the same, whichever way it took.

/** Hono's c.header() in a handler: one header set over a part's, one appended to a part's, one of a part's deleted. */
const setByHeaderCalls = (c: { header: (name: string, value?: string, options?: { append: boolean }) => void }) => {
  c.header("Cache-Control", "max-age=9");
  c.header("Vary", "Accept", { append: true });
  c.header("X-Path", undefined);
};

const PATH_PART = headerPart({ "Cache-Control": "no-store", "X-Path": "path" }, { Vary: "Origin" });
const TEXT = headerPart({ "Content-Type": "text/plain; charset=UTF-8" });

const app = newApp()
  .use(async (c, next) => {
    honourHeaderCalls(c);
    await next();
    finishAnswer(c);
  })
  .use(withHeaders(PATH_PART))
  .use((c, next) => {
    declareOwnHeader(c, "X-Own", c.req.query("own") ?? "none");
    return next();
  })
  .get("/written", (c) => writeAnswer(c, "body", 200, TEXT, c.req.query("extra") ? { "X-Extra": "1" } : undefined))
  .get("/by-hono", (c) => c.text("body", 200, c.req.query("extra") ? { "X-Extra": "1" } : undefined))
  .get("/written/own", (c) => writeAnswer(c, "body", 200, TEXT, { "Cache-Control": "max-age=5", Vary: "Accept" }))
  .get("/by-hono/own", (c) => c.text("body", 200, { "Cache-Control": "max-age=5", Vary: "Accept" }))
  .get("/written/later-part", (c) => {
    declareHeaders(c, headerPart({ "X-Path": "later" }));
    return writeAnswer(c, "body", 200, TEXT);
  })
  .get("/by-hono/later-part", (c) => {
    declareHeaders(c, headerPart({ "X-Path": "later" }));
    return c.text("body", 200);
  })
  .use("*/header-call", async (c, next) => {
    c.header("X-Before", "1");
    await next();
    c.header("X-After", "2");
  })
  .get("/written/header-call", (c) => {
    setByHeaderCalls(c);
    return writeAnswer(c, "body", 200, TEXT);
  })
  .get("/by-hono/header-call", (c) => {
    setByHeaderCalls(c);
    return c.text("body", 200);
  });

const headersOf = async (path: string) => {
  const response = await app.request(path);
  await response.arrayBuffer();
  // Vary's members in the order written: the two ways write them in different orders.
  const vary = response.headers.get("Vary")?.split(", ").sort().join(", ");
  return Object.fromEntries([...response.headers].map(([name, value]) => [name, name === "vary" ? vary : value]));
};

describe("the declared headers", () => {
  it.each(["/written", "/by-hono"])("%s: the path's parts and the request's own, beside the answer's", async (path) => {
    expect(await headersOf(`${path}?own=one&extra=1`)).toEqual({
      "cache-control": "no-store",
      "content-type": "text/plain; charset=UTF-8",
      vary: "Origin",
      "x-extra": "1",
      "x-own": "one",
      "x-path": "path",
    });
  });

  it.each(["/written", "/by-hono"])("%s: nothing of one answer's carries over to the next", async (path) => {
    await headersOf(`${path}?own=one&extra=1`);
    expect(await headersOf(`${path}?own=two`)).toEqual({
      "cache-control": "no-store",
      "content-type": "text/plain; charset=UTF-8",
      vary: "Origin",
      "x-own": "two",
      "x-path": "path",
    });
  });

  it.each(["/written/own", "/by-hono/own"])(
    "%s: an answer's own header wins over a part's of its name, and adds to one the part appends",
    async (path) => {
      expect(await headersOf(path)).toEqual({
        "cache-control": "max-age=5",
        "content-type": "text/plain; charset=UTF-8",
        vary: "Accept, Origin",
        "x-own": "none",
        "x-path": "path",
      });
    },
  );

  it.each(["/written/later-part", "/by-hono/later-part"])(
    "%s: of two parts that set one header, the one declared first (the outer) wins",
    async (path) => {
      expect((await headersOf(path))["x-path"]).toBe("path");
    },
  );

  it.each(["/written/header-call", "/by-hono/header-call"])(
    "%s: Hono's c.header() sets, appends and deletes, before the answer and after it",
    async (path) => {
      expect(await headersOf(path)).toEqual({
        "cache-control": "max-age=9",
        "content-type": "text/plain; charset=UTF-8",
        vary: "Accept, Origin",
        "x-after": "2",
        "x-before": "1",
        "x-own": "none",
      });
    },
  );

  it("a part is made once per content, whoever asks for it", () => {
    expect(headerPart({ "X-Path": "later" })).toBe(headerPart({ "X-Path": "later" }));
    expect(headerPart({ "X-Path": "later" })).not.toBe(headerPart({ "X-Path": "sooner" }));
    expect(headerPart({ Vary: "Origin" })).not.toBe(headerPart({}, { Vary: "Origin" }));
  });
});
