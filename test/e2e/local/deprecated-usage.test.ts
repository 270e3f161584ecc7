import { afterAll, beforeAll, expect, it } from "vitest";
import type { DevServer } from "../../../scripts/dev-server";
import { FLUSH_DEADLINE_MS, FLUSH_INTERVAL_MS } from "../../../src/deprecated-usage";
import { createPetThrough } from "../../api-client";
import { api } from "../client";
import { npmScript, startScratchServer } from "../global-setup";

// The usage report an operator runs before the sunset, against a server of its own
// whose state the test knows (`npm run dev -- --persist-to <dir>`).

let server: DevServer;
let key = "";
beforeAll(async () => {
  ({ server, apiKey: key } = await startScratchServer("usage report"));
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const report = async () =>
  (await npmScript("usage:deprecated", ["--persist-to", server.persistTo, "--days", "1"])).stdout;

// An isolate writes its counts at most once per FLUSH_INTERVAL_MS: the first call may be
// written at once and the second one interval later, so the report is read until both are.
it("shows the getPet calls under the caller's key label within one flush interval", async () => {
  const onServer = { origin: server.origin, key };
  const { id } = await createPetThrough(api, { name: "Reported Rex", categoryId: 1 }, onServer);
  for (let call = 0; call < 2; call++) {
    expect((await api(`/v1/pets/${id}`, onServer)).status).toBe(200);
  }
  const bothCalls = /^usage report +[0-9a-f]{12}… +getPet +2 +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m;
  const deadline = Date.now() + FLUSH_INTERVAL_MS + FLUSH_DEADLINE_MS;
  let printed = await report();
  while (!bothCalls.test(printed) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    printed = await report();
  }
  expect(printed).toMatch(bothCalls);
}, 60_000);
