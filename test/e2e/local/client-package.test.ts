import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/harness";
import { type HostileServer, startHostileServer } from "../helpers/hostile-server";

// The client's package as npm publishes it (`npm publish --dry-run`, which builds it), then
// packed, installed into scratch projects outside the repository, type-checked there, and
// run with the machine's Node.js 20 (NODE_20 names another): the README's examples as
// written, its CommonJS line, and a program against stand-ins that misbehave. What a user
// installs is what is tested, against a harness of its own (an empty store).

const ROOT = path.resolve(import.meta.dirname, "../../..");
const CLIENT = path.join(ROOT, "client");
const NODE_20 = process.env.NODE_20 ?? "/usr/bin/node";
const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), "petstore-client-user-"));
let api: Harness;
let standIn: HostileServer;
let tarball: string;

/** A project of its own in `scratch`, with the packed client installed: ES modules unless `commonJs`. */
const project = async (name: string, { commonJs = false } = {}) => {
  const dir = path.join(scratch, name);
  mkdirSync(dir);
  const manifest = commonJs ? { name, version: "1.0.0", main: "index.js" } : { name, private: true, type: "module" };
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest));
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], { cwd: dir });
  return dir;
};
const node20 = (dir: string, file: string, env: Record<string, string>) =>
  run(NODE_20, [file], { cwd: dir, env: { PATH: process.env.PATH, ...env } });
/** The README's code blocks in a language, in order. */
const readmeBlocks = (language: string) =>
  [
    ...readFileSync(path.join(CLIENT, "README.md"), "utf8").matchAll(
      new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"),
    ),
  ].map(([, code = ""]) => code);

beforeAll(async () => {
  const { stdout: version } = await run(NODE_20, ["--version"]);
  expect(version, `${NODE_20} is not Node.js 20: set NODE_20 to one`).toMatch(/^v20\./);
  [api] = await Promise.all([startHarness()]);
  standIn = await startHostileServer(api.origin);
  const { stdout: packed } = await run("npm", ["pack", "--json", "--pack-destination", scratch], { cwd: CLIENT });
  tarball = path.join(scratch, JSON.parse(packed)[0].filename);
});
afterAll(async () => {
  await standIn?.close();
  await api?.close();
  rmSync(scratch, { recursive: true, force: true });
});

it("publishes dist/ with its types, README and MIT licence, at the document's version", async () => {
  const { stdout } = await run("npm", ["publish", "--dry-run", "--json"], { cwd: CLIENT });
  const published = JSON.parse(stdout)["@petstore-edge/client"];
  const document = JSON.parse(readFileSync(path.join(ROOT, "openapi.json"), "utf8"));
  expect(published.version).toBe(document.info.version);
  const files = published.files.map(({ path }: { path: string }) => path);
  expect(files).toEqual(
    expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "README.md", "LICENSE", "package.json"]),
  );
  expect(files.some((file: string) => file.startsWith("src/"))).toBe(false);
  expect(JSON.parse(readFileSync(path.join(CLIENT, "package.json"), "utf8")).license).toBe("MIT");
});

describe("installed from its tarball into a project elsewhere", () => {
  it("runs the README's examples as written, type-checked strictly, with Node.js 20", async () => {
    const dir = await project("readme");
    writeFileSync(path.join(dir, "main.ts"), readmeBlocks("ts").join("\n"));
    const compilerOptions = { target: "ES2022", module: "NodeNext", strict: true, lib: ["ES2022"], types: ["node"] };
    const tsconfig = { compilerOptions: { ...compilerOptions, typeRoots: [path.join(ROOT, "node_modules/@types")] } };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ ...tsconfig, files: ["main.ts"] }));
    await run(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", dir]);
    // Without the key, the README's first lines stop the program, before any request.
    await expect(node20(dir, "main.js", {})).rejects.toThrow("Set PETSTORE_KEY to an API key.");
    const { stdout, stderr } = await node20(dir, "main.js", {
      PETSTORE_URL: `${api.origin}/v1`,
      PETSTORE_KEY: api.apiKey,
    });
    // What the examples print: the refused create's message, then the reader's page.
    expect(stdout).toMatch(/^Body field 'name' must be .*\n1\n$/);
    expect(stderr).toMatch(
      /^getPet is deprecated, removed on Thu, 05 Dec 2030 00:00:00 GMT; use http:\/\/.*\/v1\/pets\.$/m,
    );
  });

  it("loads with require() in a CommonJS project, as the README says, on Node.js 20", async () => {
    const dir = await project("commonjs", { commonJs: true });
    const [line = ""] = readmeBlocks("js");
    const call = `createClient({ baseUrl: process.env.PETSTORE_URL, apiKey: process.env.PETSTORE_KEY })
  .listPets({ limit: 1 })
  .then(({ pets }) => console.log(pets.length));`;
    writeFileSync(path.join(dir, "index.js"), `${line}${call}\n`);
    const { stdout } = await node20(dir, "index.js", { PETSTORE_URL: `${api.origin}/v1`, PETSTORE_KEY: api.apiKey });
    expect(stdout.trim()).toBe("1");
  });

  it("trusts nothing a stand-in sends, and recovers a create whose answer was lost, exactly once", async () => {
    const dir = await project("hostile");
    copyFileSync(path.join(ROOT, "test/e2e/client-programs/hostile.mjs"), path.join(dir, "hostile.mjs"));
    const { stdout } = await node20(dir, "hostile.mjs", { STAND_IN: standIn.origin, API_KEY: api.apiKey });
    const seen = JSON.parse(stdout);
    const unexpected = (message: string) => ({ error: "ApiError", code: "unexpected_response", message });
    expect(seen.node).toMatch(/^v20\./);
    expect(seen.huge).toMatchObject({ error: "ApiError", code: "response_too_large" });
    // It stopped reading: the stand-in wrote a few MiB of its 150 (what the sockets buffer), the heap grew by less.
    expect(standIn.hugeBytesSent[0]).toBeLessThan(16 * 2 ** 20);
    expect(seen.heapGrowthMiB).toBeLessThan(8);
    expect(seen.nullList).toMatchObject(unexpected("The answer is not a list of pets."));
    expect(seen.objectList).toMatchObject(unexpected("The answer is not a list of pets."));
    expect(seen.arrayForAPet).toMatchObject(unexpected("The answer is not a pet."));
    expect(seen.walkNull).toMatchObject(unexpected("The answer is not a list of pets."));
    expect(seen.repeatedCursor).toMatchObject(
      unexpected("The API sent a pet again or out of order: the walk cannot go on."),
    );
    // A malformed next link is the API's not, typed; a malformed successor leaves the create's pet as it is.
    expect(seen.badNextLink).toMatchObject(unexpected("The next link is not the API's."));
    expect(seen.badSuccessor.value).toMatchObject({ name: "Rex" });
    // Empty pages that keep pointing on: the walk ends at the first, after two requests.
    expect(seen.emptyPages).toMatchObject(unexpected("The API sent an empty page that points to another."));
    expect(standIn.emptyPagesServed).toEqual([""]);
    // Whatever the server echoes, the key is not in the error; a code the API does not send is typed so.
    expect(seen.echoedKey).toMatchObject({
      error: "ApiError",
      code: "unauthorized",
      message: expect.stringMatching(/^Refused Bearer .*redacted/),
    });
    expect(seen.unknownCode).toMatchObject({
      error: "ApiError",
      code: "unknown_code",
      message: "Code 'teapot', which the API does not send: Short and stout.",
    });
    expect(seen.redirect).toMatchObject({
      error: "ApiError",
      code: "unexpected_response",
      message: expect.stringMatching(/^Refused a redirect to http:\/\/.*\/plain\/v1\/pets/),
    });
    expect(seen.bookmark).toBeNull();
    expect(standIn.bookmarksSent.filter((sent) => sent !== undefined && !/^[0-9a-f-]{59}$/.test(sent))).toEqual([]);
    expect(seen.recovered.value).toMatchObject({ name: "Lost Rex" });
    expect(seen.dropped).toMatchObject({
      error: "ApiError",
      code: "unexpected_response",
      idempotencyKey: expect.any(String),
    });
    expect(seen.again.value).toMatchObject({ name: "Lost Tom" });
    const listing = await fetch(`${api.origin}/v1/pets?limit=100`, {
      headers: { Authorization: `Bearer ${api.apiKey}` },
    });
    const names = ((await listing.json()) as { name: string }[]).map(({ name }) => name);
    expect(names.filter((name) => name.startsWith("Lost ")).sort()).toEqual(["Lost Rex", "Lost Tom"]);
  });
});
