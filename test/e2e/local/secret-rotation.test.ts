import { afterAll, beforeAll, expect, it } from "vitest";
import { api, expectError, nextLink, petName } from "../helpers/client";
import { type Harness, startHarness } from "../helpers/harness";

// The rotation of CURSOR_SECRET (docs/operations.md), over HTTP: a next link issued under
// the old secret is followed after the rotation, and refused once CURSOR_SECRET_PREVIOUS
// is gone. Each step restarts the Worker with that step's secrets, as each
// `wrangler secret put` deploys a new version, on the same storage.

const OLD = "the-old-cursor-secret-0123456789abcdef";
const NEW = "the-new-cursor-secret-0123456789abcdef";

let server: Harness;
beforeAll(async () => {
  server = await startHarness({ secrets: { CURSOR_SECRET: OLD } });
});
afterAll(() => server?.close());

it("keeps next links issued under the old secret valid during a rotation, and only then", async () => {
  const on = (path: string, init: Parameters<typeof api>[1] = {}) =>
    api(path, { origin: server.origin, key: server.apiKey, ...init });
  for (let pet = 0; pet < 2; pet++) {
    const created = await on("/v1/pets", { method: "POST", json: { name: petName("rotation"), categoryId: 1 } });
    expect(created.status).toBe(201);
  }
  const next = nextLink(await on("/v1/pets?limit=1")) ?? "";
  expect(next).not.toBe("");

  await server.restart({ secrets: { CURSOR_SECRET: NEW, CURSOR_SECRET_PREVIOUS: OLD } });
  expect((await on(next)).status).toBe(200);
  await server.restart({ secrets: { CURSOR_SECRET: NEW } });
  await expectError(await on(next), 400, "invalid_request");
});
