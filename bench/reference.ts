// The reference Worker: /bare answers `[]`, what wrangler dev and the runtime cost
// alone; /one-query adds the one `SELECT 1` that any read of storage costs at least;
// /one-limit adds the rate-limit call every authenticated API request makes, which
// under wrangler dev is a Durable Object writing SQLite on each call.
export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/one-query") await env.DB.prepare("SELECT 1").first();
    if (pathname === "/one-limit") await env.RATE_LIMITER.limit({ key: "bench" });
    return Response.json([], { headers: { "X-Bench-Reference": "1" } });
  },
} satisfies ExportedHandler<{ DB: D1Database; RATE_LIMITER: RateLimit }>;
