// Reference: the bare Worker plus one `SELECT 1` on a local D1 per request, the
// least that any request reading storage can cost ("the one-query floor").
export default {
  async fetch(_request, env) {
    await env.DB.prepare("SELECT 1").first();
    return Response.json([]);
  },
} satisfies ExportedHandler<{ DB: D1Database }>;
