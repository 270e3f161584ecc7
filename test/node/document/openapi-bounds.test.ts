import { expect, it } from "vitest";
import openapi from "../../../openapi.json";

// Bounds that openapi.json states (an error's message, which docs/api.md quotes too; the
// reference page's), written here rather than imported; `npm run check:openapi`
// (test/node/scripts/checks.test.ts) keeps the file what the code generates.

it("openapi.json states an error's message of at most 1,024 characters, and the reference page of at most 512 KiB", () => {
  expect(openapi.components.schemas.Error.properties.message.maxLength).toBe(1024);
  expect(openapi.paths["/docs"].get.responses[200].content["text/html"].schema.maxLength).toBe(512 * 1024);
});
