// node generate.mjs <openapi.json> <directory>: what a caller generates from the document,
// with each generator's documented defaults but one (below).
//
// Both generators build their output with TypeScript's compiler API, which TypeScript 7
// (the repository's) no longer has. openapi-typescript asks for TypeScript 5 as a peer,
// so npm installs it beside this project's TypeScript 5; @hey-api/openapi-ts accepts any
// TypeScript from 5.5, so npm hoists it beside TypeScript 7, and its imports of
// "typescript" are answered here with this project's.
import { mkdirSync, writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

registerHooks({
  resolve(specifier, context, nextResolve) {
    const fromHeyApi = specifier === "typescript" && context.parentURL?.includes("/node_modules/@hey-api/");
    return nextResolve(specifier, fromHeyApi ? { ...context, parentURL: import.meta.url } : context);
  },
});

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("Usage: node generate.mjs <openapi.json> <directory>");

const { createClient } = await import("@hey-api/openapi-ts");
await createClient({ input, output: path.join(output, "hey-api"), logs: { level: "silent" } });

// openapi-typescript's defaultNonNullable (true by default) makes a field with a default
// required, in request bodies too: createPet's `status` would have to be sent.
const { default: openapiTS, astToString } = await import("openapi-typescript");
const types = await openapiTS(pathToFileURL(input), { defaultNonNullable: false, silent: true });
mkdirSync(output, { recursive: true });
writeFileSync(path.join(output, "openapi-typescript.ts"), astToString(types));
