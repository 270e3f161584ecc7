// The floor under each bench target: the smallest Hono app that makes the target's binding
// calls, sends D1 the API's own statements (./queries.ts, handed over in STATEMENTS; a write
// the API makes after the answer at most once per interval, in PERIODIC_WRITES), and writes
// back the API's recorded answer to it (./recorded.ts, in ANSWERS). One route, no
// middleware. The stack fixes Workers, D1, the rate limiter and Hono, so what this floor
// costs is not the API's to save; what the API costs over it is its own work.
import { Hono } from "hono";
import type { PeriodicWrite, Statement } from "./queries";
import { answerFrom, type RecordedAnswer, type Replay, writeBack } from "./recorded";

type Env = { DB: D1Database; RATE_LIMITER: RateLimit; ANSWERS?: string; STATEMENTS?: string; PERIODIC_WRITES?: string };

// Parsed on first use in each isolate, with this server's origin in place of the API's, so
// that wrangler dev's proxy rewrites the same absolute URLs it rewrites in the API's answers.
let answers: Map<string, Replay> | undefined;
let statements: Record<string, Statement[]> | undefined;
const answerOf = (env: Env, request: Request, target: string) => {
  if (!answers) {
    const { origin } = new URL(request.url);
    const recorded = Object.entries(JSON.parse(env.ANSWERS ?? "{}") as Record<string, RecordedAnswer>);
    answers = new Map(recorded.map(([name, answer]) => [name, answerFrom(answer, origin)]));
  }
  return answers.get(target);
};

let periodicWrites: Record<string, PeriodicWrite> | undefined;
/** By target: when its write last ran, and whether one is waiting. */
const writes = new Map<string, { lastAt: number; waiting: boolean }>();
/** The target's write after the answer (./queries.ts, PeriodicWrite), scheduled as the API schedules its own. */
const writeLater = (env: Env, target: string, context: Pick<ExecutionContext, "waitUntil">) => {
  periodicWrites ??= JSON.parse(env.PERIODIC_WRITES ?? "{}") as Record<string, PeriodicWrite>;
  const write = periodicWrites[target];
  if (!write) return;
  let state = writes.get(target);
  if (!state) {
    state = { lastAt: Number.NEGATIVE_INFINITY, waiting: false };
    writes.set(target, state);
  }
  if (state.waiting) return;
  state.waiting = true;
  const delayMs = Math.max(0, write.intervalMs - (Date.now() - state.lastAt));
  const batch = async () => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    state.lastAt = Date.now();
    await env.DB.batch(write.statements.map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
  };
  context.waitUntil(
    batch().finally(() => {
      state.waiting = false;
    }),
  );
};

export default new Hono<{ Bindings: Env }>()
  .get("/ready", (c) => c.text("ready", 200, { "X-Bench-Floor": "1" }))
  .all("/floor/:target", async (c) => {
    const target = c.req.param("target");
    // Every authenticated request of the API makes this call (its key is cached, so KV is not read).
    await c.env.RATE_LIMITER.limit({ key: "bench" });
    // A tool call's floor reads its JSON-RPC request, as any MCP server must to know the call.
    if (c.req.header("Mcp-Method") !== undefined) await c.req.json();
    statements ??= JSON.parse(c.env.STATEMENTS ?? "{}") as Record<string, Statement[]>;
    const ofTarget = statements[target] ?? [];
    // In a D1 session, as every query of the API runs (src/db/session.ts).
    const session = ofTarget.length ? c.env.DB.withSession("first-unconstrained") : undefined;
    for (const { sql, params, method } of ofTarget) {
      const statement = session?.prepare(sql).bind(...params);
      await (statement?.[method] as (() => Promise<unknown>) | undefined)?.call(statement);
    }
    writeLater(c.env, target, c.executionCtx);
    const answer = answerOf(c.env, c.req.raw, target);
    return answer ? writeBack(answer) : c.notFound();
  });
