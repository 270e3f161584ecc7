import { describe, expect, it } from "vitest";
import { serversByOrigin } from "../../../src/auth-server/servers";

// The sign-in Worker's authorization servers (src/auth-server/servers.ts): one per origin the
// API is served at, kept for that origin's next request; at most 8 at once, so that requests
// to ever new hosts cannot grow the isolate.

/** src/auth-server/servers.ts: the origins whose servers are kept at once. */
const MAX_ORIGINS = 8;
const origins = (count: number) => Array.from({ length: count }, (_, index) => `https://host-${index}.example`);

describe("the servers by origin", () => {
  it("keeps one server for each origin, and another for another", () => {
    const serverFor = serversByOrigin();
    const first = serverFor("https://api.example");
    expect(serverFor("https://api.example")).toBe(first);
    expect(serverFor("https://other.example")).not.toBe(first);
    expect(serverFor("https://api.example")).toBe(first);
  });

  it(`keeps ${MAX_ORIGINS} origins' servers at once, and lets them all go for a ninth`, () => {
    const serverFor = serversByOrigin();
    const kept = origins(MAX_ORIGINS).map(serverFor);
    for (const [index, origin] of origins(MAX_ORIGINS).entries()) expect(serverFor(origin)).toBe(kept[index]);
    const ninth = serverFor("https://ninth.example");
    expect(serverFor("https://ninth.example")).toBe(ninth);
    for (const [index, origin] of origins(MAX_ORIGINS).entries()) expect(serverFor(origin)).not.toBe(kept[index]);
  });
});
