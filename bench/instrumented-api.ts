// The API as `npm run bench` runs it: the production app, unchanged, behind an entry
// that counts each request's storage round trips and reports them in a header.
// The wrapping costs a few object allocations per request, negligible next to a
// round trip, so the timings stand for the production entry too.
import app from "../src/index";
import { countRoundTrips } from "./count-bindings";
import { formatRoundTrips, ROUND_TRIPS_HEADER, WORKER_HEADER } from "./headers";

// The default export may be a Hono app or a `{ fetch, scheduled }` handler; both
// answer through fetch(request, env, ctx).
type FetchHandler = {
  fetch(request: Request, env: Cloudflare.Env, ctx: ExecutionContext): Response | Promise<Response>;
};
const api = app as FetchHandler;

export default {
  async fetch(request, env, ctx) {
    const counter = countRoundTrips(env);
    const response = await api.fetch(request, counter.env, ctx);
    // Copied, because a response's headers may be immutable (one from fetch or the cache, say).
    const counted = new Response(response.body, response);
    counted.headers.set(ROUND_TRIPS_HEADER, formatRoundTrips(counter.counts));
    counted.headers.set(WORKER_HEADER, "api");
    return counted;
  },
} satisfies ExportedHandler<Cloudflare.Env>;
