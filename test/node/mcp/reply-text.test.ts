import { describe, expect, it } from "vitest";
import { replyText } from "../../../src/mcp/reply-text";

// A reply on the wire is the reply as JSON.stringify writes it, whatever replyText spared:
// each case is read back and compared with the reply itself. The tool results as agents get
// them are shown through /mcp: test/worker/mcp/endpoint.test.ts and the others beside it.

const page = { pets: [{ id: 1, name: 'Rex "the" dog', status: "available" }], nextCursor: "MS4x.abc" };

describe("a reply's text", () => {
  it("writes the structuredContent from its text, the reply unchanged", () => {
    const text = JSON.stringify(page);
    const reply = {
      jsonrpc: "2.0" as const,
      id: 7,
      result: { resultType: "complete", content: [{ type: "text", text }], structuredContent: page, _meta: { a: 1 } },
    };
    const written = replyText(reply, text);
    expect(JSON.parse(written)).toEqual(reply);
    // The value is in the text once as it is, once escaped in its text rendering.
    expect(written.split(text)).toHaveLength(2);
    expect(written.endsWith(`"structuredContent":${text}}}`)).toBe(true);
  });

  it("holds when the structuredContent is the result's only member", () => {
    const value = { a: [1, 2] };
    const reply = { jsonrpc: "2.0" as const, id: "x", result: { structuredContent: value } };
    expect(replyText(reply, JSON.stringify(value))).toBe(
      '{"jsonrpc":"2.0","id":"x","result":{"structuredContent":{"a":[1,2]}}}',
    );
  });

  it("serializes a structuredContent given without its text, and every other reply, as JSON.stringify does", () => {
    const replies = [
      { jsonrpc: "2.0" as const, id: 1, result: { content: [], structuredContent: { pets: [] } } },
      { jsonrpc: "2.0" as const, id: 2, result: { tools: [] } },
      { jsonrpc: "2.0" as const, id: 3, error: { code: -32602, message: "bad" } },
      { jsonrpc: "2.0" as const, error: { code: -32700, message: "The body is not JSON." } },
    ];
    for (const reply of replies) expect(replyText(reply, undefined)).toBe(JSON.stringify(reply));
    // A text beside a reply without a structuredContent (a refused call's) is not written in.
    expect(replyText(replies[1] as (typeof replies)[1], "{}")).toBe(JSON.stringify(replies[1]));
  });
});
