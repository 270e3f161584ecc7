import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { RATE_LIMIT_POLICY_HEADER } from "../../../src/http/rate-limit";
import { call, createApiKey, expectError } from "../../helpers/index";

/** docs/api.md: requests per 60 s per key, and a 429 says Retry-After: 60 (written here, not imported). */
const RATE_LIMIT_PERIOD_S = 60;

const { TEST_RATE_LIMIT } = env as Cloudflare.Env & { TEST_RATE_LIMIT: number };

it("answers 429 with Retry-After once a key passes its limit, without starving other keys", async () => {
  const noisy = await createApiKey("noisy");
  const quiet = await createApiKey("quiet");
  // The limiter counts in fixed windows: within two limits' worth of requests, one
  // window must overflow even if a window boundary falls in the middle.
  let limited: Response | undefined;
  for (let sent = 0; sent <= 2 * TEST_RATE_LIMIT && !limited; sent += 50) {
    const responses = await Promise.all(Array.from({ length: 50 }, () => call("/v1/pets?limit=1", { key: noisy })));
    for (const response of responses) expect([200, 429]).toContain(response.status);
    limited = responses.find((response) => response.status === 429);
  }
  expect(limited).toBeDefined();
  if (!limited) return;
  await expectError(limited, 429, "rate_limited");
  expect(limited.headers.get("Retry-After")).toBe(String(RATE_LIMIT_PERIOD_S));
  const served = await call("/v1/pets?limit=1", { key: quiet });
  expect(served.status).toBe(200);
  // The policy both were under, as the limiter is configured here (vitest.config.ts).
  for (const answer of [limited, served]) {
    expect(answer.headers.get(RATE_LIMIT_POLICY_HEADER)).toBe(
      `"per-key";q=${TEST_RATE_LIMIT};w=${RATE_LIMIT_PERIOD_S}`,
    );
  }
});

it("states no policy on an answer before authentication", async () => {
  expect((await call("/v1/pets", { key: null })).headers.has(RATE_LIMIT_POLICY_HEADER)).toBe(false);
});
