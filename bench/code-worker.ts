// What `npm run bench:code` runs under `wrangler dev` with the API's wrangler.toml: one
// request that sends N requests through the API's own `fetch` in a loop, in this isolate
// (no HTTP, no proxy), or answers N times what the API answered (the floor), so that the
// difference is the API's code alone. The rate limiters answer at once here (both sides
// would pay a local limiter's Durable Object, whose cost and noise dwarf the code's); D1
// and KV are the real local ones. What the figures mean is in bench/README.md.
import api from "../src/index";
import { answerFrom, floorQuery, type Replay, recordAnswer, writeBack } from "./recorded";

/** A target's request, as ./code.ts sends it in the body of its own. */
export type CodeRun = {
  side: "api" | "floor";
  count: number;
  /** The floor makes the one query a request that reaches D1 cannot avoid, as the bench's reference does. */
  query: boolean;
  request: { path: string; method: string; headers: Record<string, string>; body?: string };
};

const BASE_URL = "http://bench.code";
const atOnce = { limit: async () => ({ success: true }) };
// The floor writes back what the API answered this target first (a new request id each time).
const answers = new Map<string, Replay>();

export default {
  async fetch(request, env, ctx) {
    if (request.method !== "POST") return new Response(null, { headers: { "X-Bench-Code": "1" } });
    const { side, count, query, request: target } = (await request.json()) as CodeRun;
    const bindings = { ...env, RATE_LIMITER: atOnce, AUTH_FAILURE_LIMITER: atOnce };
    const send = () =>
      api.fetch(
        new Request(`${BASE_URL}${target.path}`, { method: target.method, headers: target.headers, body: target.body }),
        bindings,
        ctx,
      );
    const key = JSON.stringify(target);
    if (!answers.has(key)) answers.set(key, answerFrom(await recordAnswer(await send(), BASE_URL), BASE_URL));
    const answer = answers.get(key) as Replay;
    for (let index = 0; index < count; index++) {
      let response: Response;
      if (side === "api") response = await send();
      else {
        await atOnce.limit();
        if (query) await floorQuery(env.DB);
        response = writeBack(answer);
      }
      if (response.status !== answer.status) return new Response(`answered ${response.status}`, { status: 500 });
      await response.arrayBuffer();
    }
    return new Response(null, { status: 204 });
  },
} satisfies ExportedHandler<CloudflareBindings>;
