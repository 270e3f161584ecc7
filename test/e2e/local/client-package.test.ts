import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { apiKey, baseUrl } from "../helpers/client";

// The client's package as npm publishes it (`npm publish --dry-run`, which builds it),
// then packed, installed into a scratch project outside the repository, type-checked
// there, and run with the machine's Node.js 20 (NODE_20 names another) against the Worker
// in wrangler's test harness: what a user installs is what is tested.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const CLIENT = path.join(ROOT, "client");
const NODE_20 = process.env.NODE_20 ?? "/usr/bin/node";
const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), "petstore-client-user-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const USER_CODE = `import { ApiError, createClient } from "@petstore-edge/client";

const client = createClient({
  baseUrl: process.env.BASE_URL ?? "",
  apiKey: process.env.API_KEY ?? "",
  onWarning: (warning) => console.error(warning.message),
});
const pet = await client.createPet({ name: "Node 20 Rex", categoryId: 1 });
const { pets } = await client.listPets({ limit: 1 });
const again = await client.getPet(pet.id);
const missing = await client.getPet(987654321).catch((error: unknown) => error);
console.log(
  JSON.stringify({
    node: process.version,
    created: pet.name,
    listed: pets.length,
    fetched: again.id === pet.id,
    missing: missing instanceof ApiError ? [missing.status, missing.code] : String(missing),
  }),
);
`;

it("publishes dist/ with its types and README, at the document's version", async () => {
  const { stdout } = await run("npm", ["publish", "--dry-run", "--json"], { cwd: CLIENT });
  const published = JSON.parse(stdout)["@petstore-edge/client"];
  const document = JSON.parse(readFileSync(path.join(ROOT, "openapi.json"), "utf8"));
  expect(published.version).toBe(document.info.version);
  const files = published.files.map(({ path }: { path: string }) => path);
  expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "README.md", "package.json"]));
  expect(files.filter((file: string) => !file.startsWith("dist/"))).toEqual(
    expect.arrayContaining(["README.md", "package.json"]),
  );
  expect(files.some((file: string) => file.startsWith("src/"))).toBe(false);
}, 60_000);

it("installs from its tarball into a project elsewhere, type-checks there, and runs with Node.js 20", async () => {
  const { stdout: version } = await run(NODE_20, ["--version"]);
  expect(version, `${NODE_20} is not Node.js 20: set NODE_20 to one`).toMatch(/^v20\./);
  const { stdout: packed } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", scratch], {
    cwd: CLIENT,
  });
  const tarball = path.join(scratch, JSON.parse(packed)[0].filename);
  writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "a-user", private: true, type: "module" }));
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], { cwd: scratch });
  writeFileSync(path.join(scratch, "main.ts"), USER_CODE);
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      strict: true,
      lib: ["ES2022"],
      types: ["node"],
      typeRoots: [path.join(ROOT, "node_modules/@types")],
    },
    files: ["main.ts"],
  };
  writeFileSync(path.join(scratch, "tsconfig.json"), JSON.stringify(tsconfig));
  await run(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", scratch]);
  const { stdout, stderr } = await run(NODE_20, ["main.js"], {
    cwd: scratch,
    env: { PATH: process.env.PATH, BASE_URL: `${baseUrl}/v1`, API_KEY: apiKey },
  });
  expect(JSON.parse(stdout)).toEqual({
    node: expect.stringMatching(/^v20\./),
    created: "Node 20 Rex",
    listed: 1,
    fetched: true,
    missing: [404, "not_found"],
  });
  expect(stderr).toMatch(
    /^getPet is deprecated, removed on Thu, 05 Dec 2030 00:00:00 GMT; use http:\/\/.*\/v1\/pets\.$/m,
  );
}, 120_000);
