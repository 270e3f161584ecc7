import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { startDevServer } from "../../../scripts/dev-server";
import { api, expectError, nextLink, petName } from "../client";
import { issueKey } from "../global-setup";

// The README's rotation of CURSOR_SECRET under `wrangler dev`, over HTTP: a next link
// issued under the old secret is followed after the rotation, and refused once
// CURSOR_SECRET_PREVIOUS is gone. The secrets come from a file in .dev.vars' format given
// with --env-file, which wrangler reads through the same filter as .dev.vars (it binds
// only declared vars and required secrets): the developer's own .dev.vars is not touched.

const OLD = "the-old-cursor-secret-0123456789abcdef";
const NEW = "the-new-cursor-secret-0123456789abcdef";
const scratch = mkdtempSync(path.join(tmpdir(), "petstore-rotation-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const withSecrets = async (secrets: Record<string, string>, run: (origin: string) => Promise<void>) => {
  const file = path.join(scratch, "secrets.env");
  writeFileSync(
    file,
    Object.entries(secrets)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(""),
  );
  const server = await startDevServer({
    name: "the rotation test",
    command: "npm run dev",
    persistTo: path.join(scratch, "state"),
    args: ["--env-file", file],
    // The test runner's own CURSOR_SECRET would win over the file's.
    env: { CURSOR_SECRET: "", CURSOR_SECRET_PREVIOUS: "" },
  });
  try {
    await run(server.origin);
  } finally {
    await server.stop();
  }
};

it("keeps next links issued under the old secret valid during a rotation, and only then", async () => {
  let key = "";
  let next = "";
  await withSecrets({ CURSOR_SECRET: OLD }, async (origin) => {
    key = issueKey("rotation", path.join(scratch, "state"));
    for (let pet = 0; pet < 2; pet++) {
      const created = await api("/v1/pets", {
        origin,
        key,
        method: "POST",
        json: { name: petName("rotation"), categoryId: 1 },
      });
      expect(created.status).toBe(201);
    }
    const link = nextLink(await api("/v1/pets?limit=1", { origin, key }));
    expect(link).toBeDefined();
    next = new URL(link as string).pathname + new URL(link as string).search;
  });
  await withSecrets({ CURSOR_SECRET: NEW, CURSOR_SECRET_PREVIOUS: OLD }, async (origin) => {
    expect((await api(next, { origin, key })).status).toBe(200);
  });
  await withSecrets({ CURSOR_SECRET: NEW }, async (origin) => {
    await expectError(await api(next, { origin, key }), 400, "invalid_request");
  });
}, 180_000);
