// Reference: the cheapest Worker there is, answering `[]`; what wrangler dev and
// the runtime cost on their own.
export default {
  fetch: () => Response.json([]),
} satisfies ExportedHandler;
