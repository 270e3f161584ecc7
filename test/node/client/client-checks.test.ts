import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateWireTypes } from "../../../scripts/client-types";
import { CLIENT_BUDGET_BYTES, checkClientBudget } from "../../../scripts/lib/client-bundle";

// What `npm run check:client` compares against (test/node/scripts/checks.test.ts runs it): these
// show that each comparison can fail.

describe("the client's checks", () => {
  it(`refuse a client over ${CLIENT_BUDGET_BYTES} bytes gzip`, () => {
    const tooBig = randomBytes(CLIENT_BUDGET_BYTES + 100).toString("latin1");
    expect(() => checkClientBudget(tooBig)).toThrow(`over its budget of ${CLIENT_BUDGET_BYTES} bytes`);
    expect(checkClientBudget("export{}")).toBeLessThan(CLIENT_BUDGET_BYTES);
  });

  it("generate the wire types from the document: a change to it changes them", async () => {
    const document = JSON.parse(readFileSync("openapi.json", "utf8"));
    const current = readFileSync("client/src/wire.ts", "utf8");
    expect(await generateWireTypes(document)).toBe(current);
    document.components.schemas.PetStatus.enum.push("reserved");
    const changed = await generateWireTypes(document);
    expect(changed).toMatch(/export type PetStatus = \("available" \| "pending" \| "sold" \| "reserved"\)/);
  });
});
