// Reference: the bare Worker plus the one rate-limit call that every authenticated API
// request makes (src/rate-limit.ts). Under wrangler dev, Miniflare 5 simulates the
// binding with a Durable Object that writes to SQLite on every call, which production's
// in-colo counter does not: this row shows what that simulation alone costs.
import { WORKER_HEADER } from "../headers";

export default {
  async fetch(_request, env) {
    await env.RATE_LIMITER.limit({ key: "bench" });
    return Response.json([], { headers: { [WORKER_HEADER]: "one-limit" } });
  },
} satisfies ExportedHandler<{ RATE_LIMITER: RateLimit }>;
