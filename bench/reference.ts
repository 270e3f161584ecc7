// The reference Worker: /bare answers `[]`, what wrangler dev and the runtime cost alone
// (the bench's readiness probe); /one-limit adds the rate-limit call every authenticated
// API request makes, which under wrangler dev is a Durable Object writing SQLite on each
// call (production keeps the counters in the machine's memory); /limit-and-query adds the
// one `SELECT 1` that any read of storage costs at least, in the API's order: what a
// request that reaches D1 cannot avoid.
const LIMITED = new Set(["/one-limit", "/limit-and-query"]);
const QUERIED = new Set(["/limit-and-query"]);

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (LIMITED.has(pathname)) await env.RATE_LIMITER.limit({ key: "bench" });
    // Through a D1 session, as every query of the API goes (read replication, src/db/session.ts).
    if (QUERIED.has(pathname)) await env.DB.withSession("first-unconstrained").prepare("SELECT 1").first();
    return Response.json([], { headers: { "X-Bench-Reference": "1" } });
  },
} satisfies ExportedHandler<{ DB: D1Database; RATE_LIMITER: RateLimit }>;
