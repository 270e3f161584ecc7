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
// calls and writes its answer, with none of its code.
import { answerFrom, floorQuery, type RecordedAnswer, type Replay, writeBack } from "./recorded";

const LIMITED = new Set(["one-limit", "limit-and-query"]);
const QUERIED = new Set(["limit-and-query"]);

type Env = { DB: D1Database; RATE_LIMITER: RateLimit; ANSWERS?: string };

// Parsed on first use in each isolate, with this server's origin in place of the API's, so
// that wrangler dev's proxy rewrites the same absolute URLs it rewrites in the API's answers.
let answers: Map<string, Replay> | undefined;
const answerOf = (env: Env, origin: string, target: string) => {
  answers ??= new Map(
    Object.entries(JSON.parse(env.ANSWERS ?? "{}") as Record<string, RecordedAnswer>).map(([name, answer]) => [
      name,
      answerFrom(answer, origin),
    ]),
  );
  return answers.get(target);
};

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const [calls = "", target] = url.pathname.slice(1).split("/");
    if (LIMITED.has(calls)) await env.RATE_LIMITER.limit({ key: "bench" });
    if (QUERIED.has(calls)) await floorQuery(env.DB);
    const answer = target === undefined ? undefined : answerOf(env, url.origin, target);
    if (!answer) return Response.json([], { headers: { "X-Bench-Reference": "1" } });
    return writeBack(answer);
  },
} satisfies ExportedHandler<Env>;
