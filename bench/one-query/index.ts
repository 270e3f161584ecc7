// Reference: the bare Worker plus one `SELECT 1` on a local D1 per request, the
// least that any request reading storage can cost ("the one-query floor").
import { WORKER_HEADER } from "../headers";

export default {
  async fetch(_request, env) {
    await env.DB.prepare("SELECT 1").first();
    return Response.json([], { headers: { [WORKER_HEADER]: "one-query" } });
  },
} satisfies ExportedHandler<{ DB: D1Database }>;
