import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { checkArguments, type ToolName, tools } from "../../../src/mcp/tools";

// What /mcp's tools/list says of each tool's input and output, read as a strict JSON Schema
// 2020-12 validator reads it (MCP's dialect for tool schemas): no keyword or format it does
// not know. And a tool's inputSchema says what its arguments' check (src/mcp/tools.ts,
// the operation's own zod rules) does: for each case, both allow it or both refuse it.

const strict = () => new Ajv2020({ strict: true, allErrors: true });

describe("the tools' schemas", () => {
  it.each(["list_pets", "create_pet", "get_pet"])("of %s compile under strict JSON Schema 2020-12", (name) => {
    const tool = tools().find((each) => each.name === name);
    expect(tool).toBeDefined();
    expect(() => strict().compile(tool?.inputSchema ?? {})).not.toThrow();
    expect(() => strict().compile(tool?.outputSchema ?? {})).not.toThrow();
  });

  it("would not compile with OpenAPI's own int64 format, which the document uses", () => {
    expect(() => strict().compile({ type: "integer", format: "int64" })).toThrow(/unknown format "int64"/);
  });

  const CASES: [ToolName, unknown][] = [
    ["list_pets", {}],
    ["list_pets", { limit: 1, status: "sold", cursor: `MS4z.${"a".repeat(43)}` }],
    ["list_pets", { cursor: "abc" }],
    ["list_pets", { limit: 100 }],
    ["list_pets", { limit: 0 }],
    ["list_pets", { limit: 101 }],
    ["list_pets", { limit: "5" }],
    ["list_pets", { limit: 1.5 }],
    ["list_pets", { status: "lost" }],
    ["list_pets", { cursor: "" }],
    ["list_pets", { cursor: "x".repeat(109) }],
    ["list_pets", { other: 1 }],
    ["create_pet", { name: "Rex", categoryId: 1 }],
    ["create_pet", { name: "Rex", categoryId: 1, status: "pending", idempotencyKey: "k-1" }],
    ["create_pet", { name: "Rex", categoryId: 1, idempotencyKey: '"quoted key"' }],
    ["create_pet", { name: "Rex", categoryId: 1, idempotencyKey: "  k  " }],
    ["create_pet", { name: "Rex", categoryId: 1, idempotencyKey: "a\r\nb" }],
    ["create_pet", { name: "Rex", categoryId: 1, idempotencyKey: null }],
    ["create_pet", { name: "Rex", categoryId: 1, idempotencyKey: 12345 }],
    ["create_pet", { name: "Rex", categoryId: "1" }],
    ["create_pet", { name: "Rex", categoryId: 2 ** 53 }],
    ["create_pet", { name: "Rex" }],
    ["create_pet", { name: "", categoryId: 1 }],
    ["create_pet", { name: "Rex", categoryId: 1, id: 5 }],
    ["get_pet", { petId: 1 }],
    ["get_pet", { petId: Number.MAX_SAFE_INTEGER }],
    ["get_pet", { petId: 0 }],
    ["get_pet", { petId: ".." }],
    ["get_pet", {}],
  ];
  it.each(CASES)("of %s agree with its arguments' check on %j", (name, args) => {
    const tool = tools().find((each) => each.name === name);
    const schemaAllows = strict().compile(tool?.inputSchema ?? {})(args);
    const checkAllows = !(checkArguments(name, args) instanceof Error);
    expect(schemaAllows).toBe(checkAllows);
  });
});
