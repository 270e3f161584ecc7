// Builds the static assets of the API reference page (GET /v1/docs): Swagger UI's
// files from node_modules and our initializer, under dist/assets/v1/docs/, the
// directory that wrangler.toml's [assets] serves. Nothing of it is committed or
// bundled into the Worker. Runs on `npm ci`/`npm install` (the `prepare` script) and
// again before wrangler dev, deploy and the tests, so the directory always exists.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.join(import.meta.dirname, "..");
export const ASSETS_DIRECTORY = path.join(ROOT, "dist/assets");

export const buildDocsAssets = () => {
  const swaggerUi = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const target = path.join(ASSETS_DIRECTORY, "v1/docs");
  rmSync(ASSETS_DIRECTORY, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const files = [
    "swagger-ui-bundle.js",
    "swagger-ui-bundle.js.LICENSE.txt",
    "swagger-ui.css",
    "favicon-32x32.png",
    "LICENSE",
    "NOTICE",
  ];
  for (const file of files) copyFileSync(path.join(swaggerUi, file), path.join(target, file));
  copyFileSync(path.join(ROOT, "docs-ui/init.js"), path.join(target, "init.js"));
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) buildDocsAssets();
