// `npm run openapi` writes openapi.json from the zod schemas; `npm run check:openapi`
// (part of `npm test`) regenerates it in memory and fails when the committed copy
// differs, so the document the Worker serves can never fall behind the code.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openApiText } from "./openapi-document";

const FILE = path.join(import.meta.dirname, "../openapi.json");
const expected = openApiText();

if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(FILE, "utf8");
  } catch {}
  if (current !== expected) {
    console.error("openapi.json is stale: run `npm run openapi` and commit the result.");
    process.exit(1);
  }
  console.log("openapi.json matches the schemas.");
} else {
  writeFileSync(FILE, expected);
  console.log("Wrote openapi.json.");
}
