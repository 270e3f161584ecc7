import type { ApiKeyRecord } from "./api-keys";
import type { Database } from "./db/client";

export type AppEnv = {
  // CURSOR_SECRET_PREVIOUS is an optional secret (set only during a rotation), which
  // wrangler types cannot declare.
  Bindings: CloudflareBindings & { CURSOR_SECRET_PREVIOUS?: string };
  Variables: {
    /** The caller's key record, and the key's hash: the caller's identity for rate limits and idempotency. */
    apiKey: ApiKeyRecord & { hash: string };
    /** The request's D1 session, opened on first call (cache hits never open one). */
    db: () => Database;
    requestId: string;
  };
};
