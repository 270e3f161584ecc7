import { describe, expect, it } from "vitest";
import { askedScopes, grantedScopes } from "../../../src/auth-server/scopes";

// The scopes a sign-in grants (docs/mcp.md, "What is granted"), decided before the page is
// shown: the page and its refusals over HTTP are test/e2e/local/oauth-refusals.test.ts's.

/** docs/mcp.md: an invalid_scope's description repeats at most 64 characters of the scope. */
const SHOWN_SCOPE_LENGTH = 64;

describe("the scopes asked for", () => {
  it("are this API's, exactly, in its order; offline_access asks for nothing", () => {
    expect(askedScopes(["write", "read"])).toEqual(["read", "write"]);
    expect(askedScopes(["read", "offline_access"])).toEqual(["read"]);
    expect(askedScopes(["offline_access"])).toEqual([]);
    expect(askedScopes([])).toEqual([]);
  });

  it("refuse any other, repeating at most 64 characters of it", () => {
    const described = (scope: string) => (askedScopes(["read", scope]) as { unknown: string }).unknown;
    expect(described("READ")).toBe("Unknown scope 'READ': this server grants read and write.");
    const long = `${"a".repeat(SHOWN_SCOPE_LENGTH - 1)}bc`;
    expect(described(long)).toBe(
      `Unknown scope '${"a".repeat(SHOWN_SCOPE_LENGTH - 1)}b': this server grants read and write.`,
    );
    expect(described(long.slice(0, SHOWN_SCOPE_LENGTH))).toBe(described(long));
  });
});

describe("the scopes granted", () => {
  it("are those asked for that the key may do, or all it may do when none are asked", () => {
    expect(grantedScopes(["read"], ["read", "write"])).toEqual(["read"]);
    expect(grantedScopes(["read", "write"], ["write"])).toEqual(["write"]);
    expect(grantedScopes(["read", "write"], [])).toEqual(["read", "write"]);
    expect(grantedScopes(["write"], ["read"])).toEqual([]);
  });
});
