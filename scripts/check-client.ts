// The client against what it must match: its wire types and version generated from
// openapi.json as they are now (scripts/client-types.ts), getPet's @deprecated note naming
// the document's sunset, and its size within budget.
import { readFileSync } from "node:fs";
import path from "node:path";
import { GET_PET_SUNSET } from "../client/src/wire";
import { staleClientFiles } from "./client-types";
import { bundleClient, CLIENT_BUDGET_BYTES, checkClientBudget } from "./lib/client-bundle";

/** The @deprecated line of getPet in the client's source, which types show to its callers. */
const deprecatedNote = () =>
  /@deprecated (.*)/.exec(readFileSync(path.join(import.meta.dirname, "../client/src/types.ts"), "utf8"))?.[1] ?? "";

try {
  const stale = await staleClientFiles();
  if (stale.length > 0) throw new Error(`Stale against openapi.json: ${stale.join(", ")}. Run npm run client:types.`);
  if (!deprecatedNote().includes(GET_PET_SUNSET)) {
    throw new Error(`getPet's @deprecated note in client/src/types.ts does not name its sunset, ${GET_PET_SUNSET}.`);
  }
  const bytes = checkClientBudget(await bundleClient());
  console.log(
    `The client's types, version and getPet's sunset match openapi.json; minified it is ${bytes} bytes gzip (budget ${CLIENT_BUDGET_BYTES}).`,
  );
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
