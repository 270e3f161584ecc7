// The API as `npm run bench` runs it: the production app, unchanged, behind an entry
// that counts a request's storage round trips and reports them in a header when the
// request asks for it (X-Bench-Count). Requests under load pass straight through, so
// the timings stand for the production entry.
import app from "../src/index";
import { countRoundTrips } from "./count-bindings";
import { COUNT_REQUEST_HEADER, formatRoundTrips, ROUND_TRIPS_HEADER, WORKER_HEADER } from "./headers";

// The default export may be a Hono app or a `{ fetch, scheduled }` handler; both
// answer through fetch(request, env, ctx).
type FetchHandler = {
  fetch(request: Request, env: Cloudflare.Env, ctx: ExecutionContext): Response | Promise<Response>;
};
const api = app as FetchHandler;

export default {
  async fetch(request, env, ctx) {
    if (!request.headers.has(COUNT_REQUEST_HEADER)) {
      const response = await api.fetch(request, env, ctx);
      // The app's own responses are mutable; this names the Worker for scripts/bench.ts.
      response.headers.set(WORKER_HEADER, "api");
      return response;
    }
    const counter = countRoundTrips(env);
    const response = await api.fetch(request, counter.env, ctx);
    // Copied, because a response's headers may be immutable (one from fetch or the cache, say).
    const counted = new Response(response.body, response);
    counted.headers.set(ROUND_TRIPS_HEADER, formatRoundTrips(counter.counts));
    counted.headers.set(WORKER_HEADER, "api");
    return counted;
  },
} satisfies ExportedHandler<Cloudflare.Env>;
