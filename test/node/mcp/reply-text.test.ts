import { describe, expect, it } from "vitest";
import { jsonText } from "../../../src/lib/json-text";
import { replyText } from "../../../src/mcp/reply-text";

// A reply on the wire is the reply as JSON.stringify writes it, whatever replyText spared:
// each case is read back and compared with the reply itself. The tool results as agents get
// them are shown through /mcp: test/worker/mcp/endpoint.test.ts and the others beside it.

const page = { pets: [{ id: 1, name: 'Rex "the" dog', status: "available" }], nextCursor: "MS4x.abc" };

describe("a reply's text", () => {
  it("writes a structuredContent that jsonText serialized from its text, the reply unchanged", () => {
    const text = jsonText(page);
    const reply = {
      jsonrpc: "2.0" as const,
      id: 7,
      result: { resultType: "complete", content: [{ type: "text", text }], structuredContent: page, _meta: { a: 1 } },
    };
    const written = replyText(reply);
    expect(JSON.parse(written)).toEqual(reply);
    // The value is in the text once as it is, once escaped in its text rendering.
    expect(written.split(text)).toHaveLength(2);
    expect(written.endsWith(`"structuredContent":${text}}}`)).toBe(true);
  });

  it("holds when the structuredContent is the result's only member", () => {
    const value = { a: [1, 2] };
    jsonText(value);
    const reply = { jsonrpc: "2.0" as const, id: "x", result: { structuredContent: value } };
    expect(replyText(reply)).toBe('{"jsonrpc":"2.0","id":"x","result":{"structuredContent":{"a":[1,2]}}}');
  });

  it("serializes a structuredContent that jsonText did not, and every other reply, as JSON.stringify does", () => {
    const unseen = { pets: [] };
    const replies = [
      { jsonrpc: "2.0" as const, id: 1, result: { content: [], structuredContent: unseen } },
      { jsonrpc: "2.0" as const, id: 2, result: { tools: [] } },
      { jsonrpc: "2.0" as const, id: 3, error: { code: -32602, message: "bad" } },
      { jsonrpc: "2.0" as const, error: { code: -32700, message: "The body is not JSON." } },
    ];
    for (const reply of replies) expect(replyText(reply)).toBe(JSON.stringify(reply));
  });
});
