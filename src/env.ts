import type { ApiKeyRecord } from "./api-keys";
import type { RequestDatabase } from "./db/session";

export type AppEnv = {
  Bindings: CloudflareBindings;
  Variables: {
    /** The caller's key record, and the key's hash: the caller's identity for rate limits and idempotency. */
    apiKey: ApiKeyRecord & { hash: string };
    /** The request's D1 session, opened on first query (cache hits never open one). */
    db: RequestDatabase;
    requestId: string;
  };
};
