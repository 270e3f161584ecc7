// The reference Worker: /bare answers `[]`, what wrangler dev and the runtime cost alone
// (the bench's readiness probe); /one-limit adds the rate-limit call every authenticated
// API request makes, which under wrangler dev is a Durable Object writing SQLite on each
// call (production keeps the counters in the machine's memory); /limit-and-query adds the
// one `SELECT 1` that any read of storage costs at least, in the API's order: what a
// request that reaches D1 cannot avoid.
//
// /one-limit/<target> and /limit-and-query/<target> make the same calls, then answer what
// the API answered that target (status, headers and body, recorded by ./answers.ts and
// handed over in the ANSWERS variable): what a Worker costs that makes the API's binding
// calls and writes its answer, with none of its code. /hono/<calls>/<target> does the same
// through the smallest Hono app that can: one route, no middleware. The stack fixes Hono,
// so what this costs over the plain floor is not the API's to save.
import { Hono } from "hono";
import { answerFrom, floorQuery, type RecordedAnswer, type Replay, writeBack } from "./recorded";

const LIMITED = new Set(["one-limit", "limit-and-query"]);
const QUERIED = new Set(["limit-and-query"]);

type Env = { DB: D1Database; RATE_LIMITER: RateLimit; ANSWERS?: string };

// Parsed on first use in each isolate, with this server's origin in place of the API's, so
// that wrangler dev's proxy rewrites the same absolute URLs it rewrites in the API's answers.
let answers: Map<string, Replay> | undefined;
const answerOf = (env: Env, request: Request, target: string) => {
  if (!answers) {
    const { origin } = new URL(request.url);
    answers = new Map(
      Object.entries(JSON.parse(env.ANSWERS ?? "{}") as Record<string, RecordedAnswer>).map(([name, answer]) => [
        name,
        answerFrom(answer, origin),
      ]),
    );
  }
  return answers.get(target);
};

const makeCalls = async (calls: string, env: Env) => {
  if (LIMITED.has(calls)) await env.RATE_LIMITER.limit({ key: "bench" });
  if (QUERIED.has(calls)) await floorQuery(env.DB);
};

const throughHono = new Hono<{ Bindings: Env }>().all("/hono/:calls/:target", async (c) => {
  const { calls, target } = c.req.param();
  await makeCalls(calls, c.env);
  const answer = answerOf(c.env, c.req.raw, target);
  return answer ? writeBack(answer) : c.notFound();
});

export default {
  async fetch(request, env, ctx) {
    // Told apart before the URL is parsed: a Worker whose fetch is Hono's parses none itself.
    if (request.url.includes("/hono/")) return throughHono.fetch(request, env, ctx);
    const url = new URL(request.url);
    const [calls = "", target] = url.pathname.slice(1).split("/");
    await makeCalls(calls, env);
    const answer = target === undefined ? undefined : answerOf(env, request, target);
    if (!answer) return Response.json([], { headers: { "X-Bench-Reference": "1" } });
    return writeBack(answer);
  },
} satisfies ExportedHandler<Env>;
