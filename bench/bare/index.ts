// Reference: the cheapest Worker there is, answering `[]`; what wrangler dev and
// the runtime cost on their own.
import { WORKER_HEADER } from "../headers";

export default {
  fetch: () => Response.json([], { headers: { [WORKER_HEADER]: "bare" } }),
} satisfies ExportedHandler;
