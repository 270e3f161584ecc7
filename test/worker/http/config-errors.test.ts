import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "../../../src/keys/api-key";
import { call, createApiKey, faultLogLines } from "../../helpers/index";
import { inOneLimiterWindow } from "../../helpers/limiter-window";

// A limiter missing from the Worker's environment: a configuration error, which
// `npm run check:deploy` refuses to ship (test/node/scripts/config-check.test.ts), and which the
// Worker logs once per isolate rather than take for a passing fault on every request.

/** docs/keys.md: 60 attempts with unknown keys per address and minute (written here, not imported). */
const UNKNOWN_KEYS_PER_MINUTE = 60;

const without = (name: "RATE_LIMITER" | "AUTH_FAILURE_LIMITER") => {
  const { [name]: _, ...rest } = env;
  return rest as Cloudflare.Env;
};

describe("a limiter binding missing", () => {
  it("AUTH_FAILURE_LIMITER: unknown keys are counted in the isolate, 429 past the deployed limit; logged once", async () => {
    const bindings = without("AUTH_FAILURE_LIMITER");
    const lines = await faultLogLines(async () => {
      const statuses = await inOneLimiterWindow(async (run) => {
        const address = `203.0.113.${100 + run}`;
        const seen: number[] = [];
        for (let attempt = 0; attempt <= UNKNOWN_KEYS_PER_MINUTE; attempt++) {
          const headers = { "CF-Connecting-IP": address };
          const response = await call("/v1/pets", { key: generateApiKey("development"), headers, bindings });
          seen.push(response.status);
          await response.arrayBuffer();
        }
        return seen;
      });
      expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    });
    expect(lines.filter((line) => line.message === "limiter binding missing")).toEqual([
      { level: "error", message: "limiter binding missing", dependency: "AUTH_FAILURE_LIMITER" },
    ]);
    expect(lines.filter((line) => line.level === "warn")).toEqual([]);
  });

  it("RATE_LIMITER: a valid key's requests are served uncounted; logged once", async () => {
    const key = await createApiKey("without a rate limiter");
    const bindings = without("RATE_LIMITER");
    const lines = await faultLogLines(async () => {
      for (let request = 0; request < 3; request++) {
        expect((await call("/v1/pets?limit=1", { key, bindings })).status).toBe(200);
      }
    });
    expect(lines).toEqual([{ level: "error", message: "limiter binding missing", dependency: "RATE_LIMITER" }]);
  });
});
